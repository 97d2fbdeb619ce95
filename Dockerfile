# Two images from one file:
#  - `worker` (default): the vir worker and CLI on Node 24, with the runner's production
#    dependencies only; the sandbox (a workspace package of its own) is not in it.
#      docker build -t vir-worker .
#      docker run --rm -e TEMPORAL_ADDRESS=... -e VIS_BASE_URL=... -e VIS_API_KEY=... vir-worker
#  - `sandbox`: the worker image plus the local service and its dependencies.
#      docker build --target sandbox -t vir-sandbox .
# tsx runs the TypeScript sources directly.
FROM node:24-bookworm-slim AS worker

ENV NODE_ENV=production \
    VIR_DATA_DIR=/data

WORKDIR /app
# Only the root manifest and the lock file: without sandbox/ in the folder, npm installs the
# runner's production dependencies and none of the sandbox's (fastify, the MCP SDK, ...).
# (Not `--workspaces=false` with sandbox/ present: npm still installs the MCP SDK, a root
# devDependency that the lock file marks non-dev because the sandbox needs it at run time.)
# The report fonts' fallbacks (reports/font-chain.ts): names in Arabic, Hebrew, Devanagari, Thai,
# Chinese, Japanese and Korean render in the PDFs and chart images.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-noto-core fonts-noto-cjk \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

COPY --chown=node:node tsconfig.json ./
COPY --chown=node:node api ./api
COPY --chown=node:node activities ./activities
COPY --chown=node:node cli ./cli
COPY --chown=node:node config ./config
COPY --chown=node:node jobs ./jobs
COPY --chown=node:node lib ./lib
COPY --chown=node:node reports ./reports
COPY --chown=node:node runtime ./runtime
COPY --chown=node:node scripts ./scripts
COPY --chown=node:node workflows ./workflows
RUN mkdir -p /data && chown node:node /data

USER node
VOLUME ["/data"]
ENTRYPOINT ["/app/cli/vir.sh"]
CMD ["worker"]

FROM worker AS sandbox
USER root
COPY sandbox/package.json ./sandbox/package.json
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --chown=node:node sandbox ./sandbox
USER node
CMD ["sandbox", "--host", "0.0.0.0", "--port", "8787"]
