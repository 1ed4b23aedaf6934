// The control plane's contracts: ts-proto output of proto/svc/v1/*.proto (regenerate with
// `npm run proto`; a test fails when the committed output differs from a fresh generation).
export {
  Alternate,
  Confirmation,
  DnsFacts,
  Header,
  Heading,
  HttpResponse,
  Image,
  Link,
  MetaTag,
  PageFacts,
  Redirect,
  RobotsFacts,
  RobotsGroupRules,
  SiteFacts,
  SitemapFacts,
  TlsFacts,
} from "./gen/svc/v1/facts.js";
export {
  CheckKind,
  CheckpointRequest,
  CheckpointResponse,
  CompleteRequest,
  CompleteResponse,
  HeartbeatRequest,
  HeartbeatResponse,
  JobKind,
  LeaseRequest,
  LeaseResponse,
  RunCheckRequest,
  RunCheckResponse,
  SchedulerServiceClient,
  SchedulerServiceService,
  StartAnalysisRequest,
  StartAnalysisResponse,
  WorkItem,
  type SchedulerServiceServer,
} from "./gen/svc/v1/scheduler.js";

/** Bus topics (names are configuration in the distributed mode; these are the defaults). */
export const TOPICS = {
  work: "svc.work.v1",
  sync: "svc.sync.v1",
  results: "svc.results.v1",
  deadLetters: "svc.dead.v1",
} as const;
