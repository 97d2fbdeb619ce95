# The vir worker (and the CLI): Node 24, production dependencies only (tsx runs the
# TypeScript sources directly). Default command: `vir worker`.
#   docker build -t vir-worker .
#   docker run --rm -e TEMPORAL_ADDRESS=... -e VIS_BASE_URL=... -e VIS_API_KEY=... vir-worker
FROM node:24-bookworm-slim

ENV NODE_ENV=production \
    VIR_DATA_DIR=/data \
    VIR_STORE_DIR=/data/store \
    VIR_REPORTS_DIR=/data/reports

WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

COPY --chown=node:node . .
RUN mkdir -p /data && chown node:node /data

USER node
VOLUME ["/data"]
ENTRYPOINT ["/app/cli/vir.sh"]
CMD ["worker"]
