import type { JsonFormat, TableFormat } from "../format.ts";
import { ahrefsBacklinks } from "./ahrefs-backlinks.ts";
import { gscIndexingChart, gscIndexingIssues, gscIndexingMetadata, gscIndexingTable } from "./gsc-indexing.ts";
import { gscLinks } from "./gsc-links.ts";
import { gscFilters, gscPerformance } from "./gsc-performance.ts";
import { keyssoCompetitors, keyssoKeywords } from "./keysso-market.ts";
import { keyssoMonitoring } from "./keysso-monitoring.ts";
import { semrushBacklinks } from "./semrush-backlinks.ts";
import { topvisorPositions } from "./topvisor-positions.ts";
import { topvisorSnapshots } from "./topvisor-snapshots.ts";
import { yandexPages } from "./yandex-pages.ts";
import { yandexQueryAnalytics } from "./yandex-query-analytics.ts";
import { yandexQueryMonitoring } from "./yandex-query-monitoring.ts";

/**
 * Every table export the importer knows, recognised by header row in this order (the first that
 * matches reads the file). More specific headers come before looser ones.
 */
export const TABLE_FORMATS: readonly TableFormat[] = [
  gscPerformance,
  gscFilters,
  gscIndexingChart,
  gscIndexingIssues,
  gscIndexingMetadata,
  gscIndexingTable,
  yandexQueryAnalytics,
  yandexQueryMonitoring,
  yandexPages,
  ahrefsBacklinks,
  semrushBacklinks,
  gscLinks,
];

/** Every JSON document the importer knows (provider API answers saved to a file). */
export const JSON_FORMATS: readonly JsonFormat[] = [topvisorPositions, topvisorSnapshots, keyssoMonitoring, keyssoCompetitors, keyssoKeywords];
