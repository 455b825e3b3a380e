# OwlClaw MCP Gateway container image: HTTP transport on port 8080.
#
#   docker build -t owlclaw-mcp-gateway .
#   docker run --rm -p 8080:8080 owlclaw-mcp-gateway
#
# Configuration: config/mcp-server.yaml is baked in; override single keys with MCP_SERVER_*
# environment variables (docs/configuration.md) or mount another file and set MCP_SERVER_CONFIG.

# ---- build stage: full dependencies, compile TypeScript, then drop dev dependencies ----
FROM node:24-bookworm-slim AS build

# Node 24 is the current LTS. On it the gateway loads better-sqlite3 13 (N-API prebuilds, the optional
# `better-sqlite3-napi` dependency); npm ci still compiles the 12.x that Node 20 uses, so node-gyp's
# toolchain stays in this stage. The runtime stage receives node_modules as built here.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app

# Dependencies first, so source edits do not invalidate the npm ci layer.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

COPY . .
# capabilities/ (SKILL.md skills) is optional: mkdir makes sure it exists for the runtime COPY.
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && mkdir -p capabilities

# ---- runtime stage: compiled output and production dependencies only ----
FROM node:24-bookworm-slim AS runtime

ENV NODE_ENV=production \
    MCP_SERVER_TRANSPORT=http \
    MCP_SERVER_HTTP_HOST=0.0.0.0 \
    MCP_SERVER_HTTP_PORT=8080

WORKDIR /app

# Application files stay owned by root (read-only for the node user); data/ is the one
# writable directory, for local state such as a SQLite ledger.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/config ./config
COPY --from=build /app/capabilities ./capabilities
RUN mkdir -p data && chown node:node data

USER node

EXPOSE 8080

# Liveness: GET /health must answer 200. Uses node itself (the slim image has no curl).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "require('http').get({host:'127.0.0.1',port:process.env.MCP_SERVER_HTTP_PORT||8080,path:'/health',timeout:4000},r=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1)).on('timeout',()=>process.exit(1))"

# V8 heap flags: docs/configuration.md#v8-heap-flags (the bench gives every server these).
CMD ["node", "--no-allocation-site-pretenuring", "--heap-growing-percent=100", "dist/cli/main.js", "mcp-server", "start", "--transport", "http"]
