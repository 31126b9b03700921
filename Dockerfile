# A minimal, static, non-root image of the function.
#
# These machines have no registry access, so the image is built FROM scratch
# around the static binary that `make build` writes (CGO_ENABLED=0,
# -trimpath, version stamped):
#
#   make build && buildah bud -t localhost/apply-overrides:dev .
#
# A release pipeline with registry access builds the same image from source
# by putting a builder stage in front of this file and copying from it
# instead of from bin/:
#
#   FROM golang:1.26 AS build
#   WORKDIR /src
#   COPY . .
#   RUN make build
#   ...and below: COPY --from=build /src/bin/apply-overrides /src/bin/apply-overrides-cel /usr/local/bin/
FROM scratch
ARG VERSION=v0.0.0-dev
LABEL org.opencontainers.image.title="apply-overrides" \
      org.opencontainers.image.description="KRM function: render what a member cluster receives from Karmada OverridePolicies, offline" \
      org.opencontainers.image.source="https://github.com/apply-overrides/apply-overrides" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="Apache-2.0"
# kpt and kustomize run container functions as the user nobody.
COPY build/passwd /etc/passwd
COPY build/group /etc/group
COPY bin/apply-overrides bin/apply-overrides-cel /usr/local/bin/
USER 65534:65534
ENTRYPOINT ["/usr/local/bin/apply-overrides"]
