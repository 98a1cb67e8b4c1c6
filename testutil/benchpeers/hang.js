// A stdio "MCP server" that never initializes: it reads whatever the host
// sends and never answers, until its stdin closes. benchpeers measures how
// long a host takes to answer anyway when one of its servers is this one.
process.stdin.on("data", () => {});
process.stdin.on("end", () => process.exit(0));
