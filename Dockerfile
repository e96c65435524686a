# syntax=docker/dockerfile:1
#
# sudoku-service: a static release binary in an empty (scratch) image.
#
#   docker build -t sudoku-service .
#   docker run --rm -p 8080:8080 sudoku-service
#
# Facing the internet, keep /metrics off the public port with the admin
# address, published on loopback only, and turn on keys and limits as needed
# (docs/operations.md, "Exposing it publicly"):
#
#   docker run --rm -p 8080:8080 -p 127.0.0.1:9090:9090 \
#     -e SUDOKU_ADMIN_LISTEN=0.0.0.0:9090 \
#     -e SUDOKU_API_KEYS_FILE=/keys/api-keys -v "$PWD/keys:/keys:ro" \
#     -e SUDOKU_RATE_LIMIT=600 sudoku-service
#
# The HEALTHCHECK probes the public port's /healthz, which stays open.
#
# The build stage compiles for the platform it runs on (x86_64 or aarch64
# glibc, read from `rustc -vV`) with the C runtime linked in statically, so the
# final image needs no libc, no shell and no package manager.

ARG RUST_IMAGE=docker.io/library/rust:1-slim-bookworm

FROM ${RUST_IMAGE} AS build
# The cargo profile: release ships; CI's container test builds with `ci`, optimised without
# the whole-program optimisation, to check the same file in a third of the time.
ARG CARGO_PROFILE=release
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
WORKDIR /src
# Symbols stripped: the image ships the binary alone (a fifth smaller), and a panic's
# message and source location, which the service logs, do not need them.
ENV CARGO_TERM_COLOR=never \
    CARGO_INCREMENTAL=0 \
    CARGO_NET_RETRY=10 \
    RUSTFLAGS="-C target-feature=+crt-static -C strip=symbols"

# 1. Dependencies only, against placeholder sources: this layer is reused for
#    as long as Cargo.toml and Cargo.lock do not change.
COPY Cargo.toml Cargo.lock ./
COPY crates/sudoku/Cargo.toml ./crates/sudoku/
COPY crates/sudoku/benches ./crates/sudoku/benches
COPY crates/sudoku-print/Cargo.toml ./crates/sudoku-print/
COPY crates/sudoku-scan/Cargo.toml ./crates/sudoku-scan/
RUN set -eu; \
    target="$(rustc -vV | sed -n 's/^host: //p')"; \
    echo "$target" > /target-triple; \
    mkdir -p src crates/sudoku/src crates/sudoku-print/src crates/sudoku-scan/src; \
    echo 'fn main() {}' > src/main.rs; \
    echo '//! placeholder' > src/lib.rs; \
    for crate in sudoku sudoku-print sudoku-scan; do \
        echo '//! placeholder' > "crates/$crate/src/lib.rs"; \
    done; \
    cargo fetch --locked; \
    cargo build --profile "$CARGO_PROFILE" --locked --target "$target" --bin sudoku-service; \
    rm -rf src crates/sudoku/src crates/sudoku-print/src crates/sudoku-scan/src

# 2. The service itself, with whatever else the crate includes (openapi.yaml,
#    ...; .dockerignore keeps out build output and files the build never reads).
#    touch: COPY keeps the sources' old mtimes, which cargo would otherwise
#    take for older than the placeholder build.
COPY . .
RUN set -eu; \
    target="$(cat /target-triple)"; \
    find src crates -type f -exec touch {} +; \
    cargo build --profile "$CARGO_PROFILE" --locked --offline --target "$target" --bin sudoku-service; \
    install -D -m 0755 "target/$target/$CARGO_PROFILE/sudoku-service" /out/sudoku-service; \
    /out/sudoku-service --version; \
    if ldd /out/sudoku-service 2>/dev/null | grep -q '=>'; then \
        echo 'sudoku-service is dynamically linked' >&2; exit 1; \
    fi

FROM scratch
COPY --from=build /out/sudoku-service /sudoku-service
# Any numeric non-root user works; 65532 is the usual "nonroot".
USER 65532:65532
ENV PORT=8080 \
    RUST_LOG=info
# 8080: the API; 9090: the admin address when SUDOKU_ADMIN_LISTEN names it.
EXPOSE 8080 9090
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/sudoku-service", "healthcheck"]
ENTRYPOINT ["/sudoku-service"]
CMD ["serve"]
