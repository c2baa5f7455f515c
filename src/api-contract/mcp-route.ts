/** Where MCP is served: a route under /v1 that is not an operation of the contract (it is JSON-RPC). */
export const MCP_PATH = '/v1/mcp';
