// Typed ESLint. The import rules are DESIGN.md's folder table: which folder may import which,
// and that other folders import a folder only through its index.ts.
import tseslint from "typescript-eslint";
import importX, { createNodeResolver } from "eslint-plugin-import-x";

const FOLDERS = ["clients", "proto", "analyzer", "utilities", "runtime", "storage", "crawler", "scheduler", "gateway", "bin", "test"];
// DESIGN.md: folder → folders it may import (besides itself).
const MAY_IMPORT = {
  // The typed client package (clients/typescript) is published on its own: it imports nothing of Svc.
  clients: [],
  proto: [],
  analyzer: ["proto"],
  utilities: ["analyzer", "proto"],
  runtime: ["proto"],
  storage: ["analyzer", "proto", "runtime"],
  crawler: ["analyzer", "utilities", "proto", "runtime"],
  scheduler: ["analyzer", "storage", "proto", "runtime"],
  gateway: ["clients", "analyzer", "utilities", "storage", "proto", "runtime"],
  bin: FOLDERS.filter((f) => f !== "bin" && f !== "test"),
};

const zones = Object.entries(MAY_IMPORT).flatMap(([target, allowed]) =>
  FOLDERS.filter((f) => f !== target && !allowed.includes(f)).map((from) => ({
    target: `./${target}`,
    from: `./${from}`,
    message: `DESIGN.md: ${target}/ may not import ${from}/`,
  })),
);

const indexOnly = FOLDERS.filter((f) => f !== "bin" && f !== "test" && f !== "clients").map((f) => ({
  group: [`**/${f}/*`, `!**/${f}/index.ts`],
  message: `import ${f}/ only through ${f}/index.ts`,
}));
// The client package's entry is its src/index.ts (what its package.json exports, built).
indexOnly.push({ group: ["**/clients/**", "!**/clients/typescript/src/index.ts"], message: "import clients/ only through clients/typescript/src/index.ts" });

export default tseslint.config(
  { ignores: ["node_modules/**", "data/**", ".tmp/**", "dist/**", "clients/typescript/dist/**", "test/consumer/**", "proto/gen/**", "coverage/**", "test/bench/*.cjs"] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ["*.js", "bin/*.js"] }, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "import-x": importX },
    rules: {
      "import-x/no-restricted-paths": ["error", { zones }],
      "import-x/no-cycle": ["error", { maxDepth: 10, ignoreExternal: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-floating-promises": "error",
      // The registry's handlers are async by contract even when they do not await.
      "@typescript-eslint/require-await": "off",
    },
    settings: { "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".js", ".json"] })] },
  },
  {
    files: ["runtime/**", "storage/**", "gateway/**", "scheduler/**", "crawler/**", "analyzer/**", "utilities/**", "proto/**"],
    rules: { "no-restricted-imports": ["error", { patterns: indexOnly }] },
  },
  {
    // DESIGN.md "Contracts apart from handlers": the contracts load without the server. Besides
    // each other they import TypeBox, the error catalogue, the shared schemas and pure analyzer
    // data (test/unit/contracts-isolation.test.ts checks the whole graph at run time).
    // report-view.ts is allowed while ReportSchema lives beside the renderer that fills it.
    files: ["gateway/contracts/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: ["fastify", "pg", "@electric-sql/pglite", "kafkajs", "@clickhouse/client", "@grpc/grpc-js"].map((name) => ({
            name,
            message: "a contract loads without the server",
          })),
          patterns: [
            {
              regex: "^\\.\\./(?!errors\\.ts$|schemas\\.ts$|\\.\\./analyzer/index\\.ts$|\\.\\./utilities/index\\.ts$|operations/report-view\\.ts$)",
              message: "a contract imports only other contracts, ../errors.ts, ../schemas.ts, ../../analyzer/index.ts and ../../utilities/index.ts (the catalogue)",
            },
          ],
        },
      ],
    },
  },
  {
    // The typed client (and the `svc` CLI built on it) loads without the server, like the
    // contracts it is generated from: besides its own files it imports the contracts' index, the
    // error catalogue and the client package's runtime only (test/unit/contracts-isolation.test.ts checks the graph at run time).
    files: ["gateway/client/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: ["fastify", "pg", "@electric-sql/pglite", "kafkajs", "@clickhouse/client", "@grpc/grpc-js"].map((name) => ({
            name,
            message: "the client loads without the server",
          })),
          patterns: [
            {
              regex: "^\\.\\./(?!contracts/index\\.ts$|errors\\.ts$|\\.\\./clients/typescript/src/index\\.ts$)",
              message: "the client imports only ../contracts/index.ts, ../errors.ts and the client package (../../clients/typescript/src/index.ts)",
            },
          ],
        },
      ],
    },
  },
  {
    // DESIGN.md: one egress module on a crawler node. Within crawler/, only crawler/fetch/ (the
    // egress: policy, dialler, dispatchers, the browser's proxy) opens connections; everything else
    // asks the node's Egress; the utilities reach the network only through their injected port.
    // isIP, createServer and the types stay free.
    files: ["crawler/**", "utilities/**"],
    ignores: ["crawler/fetch/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "node:net", importNames: ["connect", "createConnection", "Socket"], allowTypeImports: true, message: "connect through the node's Egress (crawler/fetch/egress.ts: dial)" },
            { name: "node:tls", importNames: ["connect", "createSecureContext", "TLSSocket"], allowTypeImports: true, message: "connect through the node's Egress (crawler/fetch/egress.ts: dial with tls)" },
            { name: "node:http", importNames: ["request", "get", "Agent", "globalAgent"], allowTypeImports: true, message: "send requests through the node's Egress (crawler/fetch/)" },
            { name: "node:https", importNames: ["request", "get", "Agent", "globalAgent"], allowTypeImports: true, message: "send requests through the node's Egress (crawler/fetch/)" },
            { name: "node:http2", importNames: ["connect"], allowTypeImports: true, message: "connect through the node's Egress (crawler/fetch/)" },
            { name: "net", importNames: ["connect", "createConnection", "Socket"], allowTypeImports: true, message: "use node:net names only through the node's Egress (crawler/fetch/)" },
            { name: "tls", importNames: ["connect", "createSecureContext", "TLSSocket"], allowTypeImports: true, message: "use node:tls names only through the node's Egress (crawler/fetch/)" },
            { name: "http", importNames: ["request", "get", "Agent", "globalAgent"], allowTypeImports: true, message: "use node:http names only through the node's Egress (crawler/fetch/)" },
            { name: "https", importNames: ["request", "get", "Agent", "globalAgent"], allowTypeImports: true, message: "use node:https names only through the node's Egress (crawler/fetch/)" },
            { name: "undici", importNames: ["request", "fetch", "stream", "pipeline", "connect", "Agent", "Client", "Pool", "ProxyAgent", "buildConnector", "setGlobalDispatcher"], allowTypeImports: true, message: "send requests through the node's Egress (egress.request, egress.dispatcher)" },
          ],
        },
      ],
      "no-restricted-globals": ["error", { name: "fetch", message: "the global fetch bypasses the egress guard: use the node's Egress" }],
    },
  },
  {
    // DESIGN.md: SQL lives only in storage/. A string that starts like a statement (keywords in
    // capitals, as all of Svc's SQL is written) is one.
    files: ["runtime/**", "gateway/**", "scheduler/**", "crawler/**", "analyzer/**", "utilities/**", "proto/**", "bin/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: String.raw`Literal[value=/^\s*(SELECT\s|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|WITH\s+\w+\s+AS|CREATE\s|ALTER\s|DROP\s|TRUNCATE\s)/]`, message: "SQL lives in storage/: add a repository method" },
        { selector: String.raw`TemplateElement[value.raw=/^\s*(SELECT\s|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|WITH\s+\w+\s+AS|CREATE\s|ALTER\s|DROP\s|TRUNCATE\s)/]`, message: "SQL lives in storage/: add a repository method" },
      ],
    },
  },
  {
    files: ["test/**"],
    rules: {
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  {
    files: ["**/*.js"],
    ...tseslint.configs.disableTypeChecked,
  },
);
