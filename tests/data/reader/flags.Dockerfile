FROM --platform=$BUILDPLATFORM img AS x
RUN --mount=type=cache,target=/root/.cache --mount=type=bind,from=x,source=/a,target=/b pip i y
COPY --from=build --chown=1:1 --link a b
ADD --checksum=sha256:abc https://e.x/f /f
RUN --mount=type=secret,id="a b" -- --not-a-flag
