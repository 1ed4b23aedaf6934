/** The API's base path (every path of the spec is relative to it). */
export const API_BASE_PATH = "/api/v1";

/** The tool server: POST only (Streamable HTTP, stateless, JSON answers). */
export const MCP_PATH = `${API_BASE_PATH}/mcp`;
