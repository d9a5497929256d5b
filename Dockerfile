# The image builds the way CI does (.ci/run): npm ci, then npm run build. The runtime stage runs the
# built bundle directly: no build step, no build tools.
FROM node:26-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
COPY fixtures ./fixtures
COPY scenarios ./scenarios
COPY xsd ./xsd
RUN npm run build && npm prune --omit=dev

FROM node:26-slim
# HOST=0.0.0.0 makes a start without SANDBOX_WEBHOOK_TARGETS warn that webhooks may reach any address:
# set public where strangers reach the container (compose.yaml does), any for a CI service.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4010
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/fixtures ./fixtures
COPY --from=build --chown=node:node /app/scenarios ./scenarios
COPY --from=build --chown=node:node /app/xsd ./xsd
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4010
# Follows PORT, so `docker run -e PORT=8080` stays healthy.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||4010)+'/_sandbox/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Memory store by default; add `--data /data` to keep tenants on the volume.
CMD ["node", "--max-semi-space-size=16", "--no-allocation-site-pretenuring", "dist/main.js"]
