# apply-overrides
# VERSION: a semver with the commit (hack/version.sh), e.g. v0.0.0-dev+f50b9d1.
VERSION ?= $(shell hack/version.sh)
LDFLAGS := -s -w -X github.com/apply-overrides/apply-overrides/fn.Version=$(VERSION)
GO ?= go
BIN := bin/apply-overrides

IMAGE ?= localhost/apply-overrides:dev
# runc and sandbox-sized ulimits: what podman/buildah need on these machines
export CONTAINERS_CONF ?= $(CURDIR)/build/containers.conf

.PHONY: build test vet fmt fuzz race e2e image e2e-container bench bench-peers bench-kyverno bench-fanout clean differential-kyverno

## build: the static binaries bin/apply-overrides (built without the CEL dialects: -tags nocel) and
##        bin/apply-overrides-cel (the whole function), to which the first hands inputs with CEL policies
build:
	CGO_ENABLED=0 $(GO) build -trimpath -tags nocel -ldflags '$(LDFLAGS)' -o $(BIN) .
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)-cel ./cmd/apply-overrides-cel

## test: the whole test suite (unit, conformance, golden, examples, e2e when kpt/kustomize are present)
test:
	$(GO) test ./...

## race: the race detector on the packages that run on all cores (fn drives every dialect from its workers)
race:
	$(GO) test -race ./fn/ ./internal/parallel/ ./internal/resourcelist/ ./policy/ ./karmada/ ./kubeadmiral/ ./kubefleet/ ./kyverno/ ./kyverno/mpol/ ./admissionpolicy/ ./overriders/ ./kubeadmiral/overriders/ ./internal/yamlpatch/

## e2e: the kpt and kustomize end-to-end tests, failing when a tool is missing
e2e:
	APPLY_OVERRIDES_E2E=require $(GO) test ./test/ -run 'TestE2E|TestExample' -count=1 -v

## image: the container image (docker when an engine answers, else buildah)
image: build
	@if docker info >/dev/null 2>&1; then \
	  docker build --build-arg VERSION=$(VERSION) -t $(IMAGE) . ; \
	else \
	  buildah bud --quiet --build-arg VERSION=$(VERSION) -t $(IMAGE) . ; \
	fi

## e2e-container: podman run -i, kpt --image (eval and render) and a kustomize container transformer
e2e-container: image
	APPLY_OVERRIDES_E2E=require APPLY_OVERRIDES_IMAGE=$(IMAGE) $(GO) test ./test/ -run 'TestContainer' -count=1 -v

## vet / fmt: static checks
vet:
	$(GO) vet ./...
fmt:
	gofmt -l -w $$(git ls-files '*.go')

## fuzz: run each fuzz target (package:Target) for FUZZTIME (default 60s), one after another;
##       e.g. make fuzz FUZZTIME=10m FUZZ_TARGETS=./fn:FuzzMain FUZZFLAGS=-parallel=1
FUZZTIME ?= 60s
FUZZMINIMIZETIME ?= 1s
FUZZFLAGS ?=
FUZZ_TARGETS ?= \
	./internal/yamlpatch:FuzzPatchMatchesEvanphx \
	./internal/yamlpatch:FuzzPatchMatchesV4 \
	./overriders:FuzzKarmadaImageRef \
	./kubeadmiral/overriders:FuzzImageRef \
	./kyverno/vars/image:FuzzKyvernoImageRef \
	./fn:FuzzMain \
	./fn:FuzzMainItems \
	./overriders:FuzzFilters \
	./kubeadmiral/overriders:FuzzPatches \
	./kyverno/conditions:FuzzOperate \
	./internal/wildcard:FuzzWildcardMatchesLibrary \
	./kyverno/smp:FuzzParseJSONMatchesYAML \
	./kyverno/smp:FuzzFast \
	./internal/yamlnode:FuzzObjectValue \
	./internal/yamlnode:FuzzBlockScalarsSafe \
	./internal/yamlnode:FuzzYAML11NonString
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
	  pkg=$${t%%:*}; name=$${t#*:}; \
	  echo "== $$pkg $$name for $(FUZZTIME)"; \
	  log=$$(mktemp); \
	  rc=0; $(GO) test $$pkg -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) $(FUZZFLAGS) >$$log 2>&1 || rc=$$?; \
	  cat $$log; \
	  if [ $$rc -ne 0 ]; then \
	    if grep -q 'context deadline exceeded' $$log && ! grep -q 'Failing input written' $$log; then \
	      echo "== $$name: the fuzz coordinator timed out at the end of the budget with no failing input (golang/go#75804); once more"; \
	      $(GO) test $$pkg -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) $(FUZZFLAGS); \
	    else rm -f $$log; exit 1; fi; \
	  fi; rm -f $$log; \
	done

## differential-kyverno: compare the Kyverno dialect with the Kyverno CLI v1.19.1 (built once into .cache/kyverno)
##       on the examples, the conformance cases, KYVERNO_N generated scenarios with kyverno.io policies and
##       KYVERNO_CEL_N with CEL MutatingPolicies (seed KYVERNO_SEED); e.g. make differential-kyverno KYVERNO_CEL_N=500
KYVERNO_N ?= 40
KYVERNO_CEL_N ?= 200
KYVERNO_SEED ?= 1
differential-kyverno:
	KYVERNO_CLI="$$(./hack/kyverno-cli.sh)" && $(MAKE) build && \
	  KYVERNO_CLI="$$KYVERNO_CLI" KYVERNO_SCENARIOS=$(KYVERNO_N) KYVERNO_CEL_SCENARIOS=$(KYVERNO_CEL_N) KYVERNO_SEED=$(KYVERNO_SEED) \
	  $(GO) test ./test/ -run TestKyvernoDifferential -count=1 -v -timeout 60m

## bench: Go benchmarks of the overriders, of Kyverno policies and of the whole function on generated corpora
bench:
	$(GO) test ./overriders/ ./kubeadmiral/overriders/ -run '^$$' -bench . -benchmem -benchtime 5000x
	$(GO) test ./kyverno/ -run '^$$' -bench . -benchmem -benchtime 500x
	$(GO) test ./fn/ -run '^$$' -bench . -benchmem

## bench-peers: the side-by-side benchmark (bench/, a module of its own): bin/apply-overrides beside
##       an identity kyaml function, Karmada's override manager and kustomize on a generated corpus of
##       R resources and P OverridePolicies, REPS interleaved runs each; e.g. make bench-peers R=10000 P=200
##       PEERS="identity karmada apply-overrides" (kustomize takes many minutes per run there);
##       PROPAGATION=N adds N PropagationPolicies and a fleet of three clusters (identity and
##       apply-overrides only: the other peers do not place)
R ?= 1000
P ?= 50
REPS ?= 5
PEERS ?= all
PROPAGATION ?= 0
CLUSTERS ?= 20
FANOUT_PROPAGATION ?= 50
bench-peers: build
	PEERS="$(PEERS)" PROPAGATION="$(PROPAGATION)" APPLY_OVERRIDES="$(CURDIR)/$(BIN)" GO="$(GO)" bench/run.sh $(R) $(P) $(REPS)

## bench-kyverno: what Kyverno costs (bench/kyverno.sh): bin/apply-overrides on bench/'s corpus of R
##       resources and P OverridePolicies without and with two Kyverno ClusterPolicies, and the
##       Kyverno CLI v1.19.1 (hack/kyverno-cli.sh; the first build takes minutes) applying them to
##       the same resources in one run, REPS interleaved runs each, then a cross-check of every
##       object against the CLI's; OURS_REPS (default REPS) rounds of apply-overrides' own two runs;
##       e.g. make bench-kyverno R=10000 P=200 REPS=3 OURS_REPS=15
bench-kyverno: build
	KYVERNO_CLI="$$(./hack/kyverno-cli.sh)" && \
	  KYVERNO_CLI="$$KYVERNO_CLI" APPLY_OVERRIDES="$(CURDIR)/$(BIN)" GO="$(GO)" OURS_REPS="$(OURS_REPS)" bench/kyverno.sh $(R) $(P) $(REPS)

## bench-fanout: one fan-out run over CLUSTERS clusters (data.render "*") beside the single-cluster run, REPS
##       interleaved runs each, on a fleet corpus (bench/, gen -clusters); prints the ratios and the cost per extra
##       cluster, and checks the fan-out output against one run per cluster; e.g.
##       make bench-fanout R=10000 P=200 CLUSTERS=20 REPS=5
bench-fanout: build
	PEERS="apply-overrides fanout" PROPAGATION="$(FANOUT_PROPAGATION)" CLUSTERS="$(CLUSTERS)" APPLY_OVERRIDES="$(CURDIR)/$(BIN)" GO="$(GO)" bench/run.sh $(R) $(P) $(REPS)

clean:
	rm -rf bin

## differential-karmada-placement: compare the function's placement with Karmada v1.16.0's own code
##       (oracle/karmada, a module of its own, built into /tmp/karmada-oracle) on N generated scenarios
##       from seed SEED, once per member cluster; e.g. make differential-karmada-placement N=500
N ?= 500
SEED ?= 1
ORACLE_OUT ?= /tmp/karmada-oracle
.PHONY: differential-karmada-placement
differential-karmada-placement:
	$(MAKE) build
	cd oracle/karmada && { GOFLAGS=-mod=mod GOPROXY=off $(GO) build -o $(ORACLE_OUT)/ ./cmd/... || \
	  { echo "module cache incomplete: fetching Karmada's dependencies through the Go module proxy"; \
	    GOFLAGS=-mod=mod $(GO) build -o $(ORACLE_OUT)/ ./cmd/... ; } ; }
	rm -rf $(ORACLE_OUT)/scenarios
	$(ORACLE_OUT)/gen -seed $(SEED) -n $(N) -out $(ORACLE_OUT)/scenarios
	$(ORACLE_OUT)/compare -fn $(CURDIR)/$(BIN) -dir $(ORACLE_OUT)/scenarios

## differential-kubeadmiral-placement: compare the function's KubeAdmiral placement with the verdicts
##       KubeAdmiral's own scheduler framework, plugins and planners at 19de01c gave on the first N
##       generated scenarios (seeds 1..N, N at most the 500 recorded; oracle/kubeadmiral, a module of
##       its own, built into /tmp/kubeadmiral-oracle), once per member cluster;
##       e.g. make differential-kubeadmiral-placement N=500
KUBEADMIRAL_ORACLE_OUT ?= /tmp/kubeadmiral-oracle
.PHONY: differential-kubeadmiral-placement
differential-kubeadmiral-placement:
	$(MAKE) build
	cd oracle/kubeadmiral && { GOFLAGS=-mod=mod GOPROXY=off $(GO) build -o $(KUBEADMIRAL_ORACLE_OUT)/ ./cmd/compare || \
	  { echo "module cache incomplete: fetching the oracle's dependencies through the Go module proxy"; \
	    GOFLAGS=-mod=mod $(GO) build -o $(KUBEADMIRAL_ORACLE_OUT)/ ./cmd/compare ; } ; }
	$(KUBEADMIRAL_ORACLE_OUT)/compare -fn $(CURDIR)/$(BIN) -n $(N)

## differential-kubefleet: compare the function's KubeFleet placement and overrides (per cluster: which
##       resources, their content, override errors) with the verdicts KubeFleet v0.3.1's own scheduler
##       framework and work generator gave on the first N generated scenarios (seeds 1..N, N at most
##       the 500 recorded; oracle/kubefleet, built into /tmp/kubefleet-oracle); e.g. make differential-kubefleet N=500
KUBEFLEET_ORACLE_OUT ?= /tmp/kubefleet-oracle
.PHONY: differential-kubefleet
differential-kubefleet:
	$(MAKE) build
	cd oracle/kubefleet && { GOFLAGS=-mod=mod GOPROXY=off $(GO) build -o $(KUBEFLEET_ORACLE_OUT)/ ./cmd/compare || \
	  { echo "module cache incomplete: fetching the oracle's dependencies through the Go module proxy"; \
	    GOFLAGS=-mod=mod $(GO) build -o $(KUBEFLEET_ORACLE_OUT)/ ./cmd/compare ; } ; }
	$(KUBEFLEET_ORACLE_OUT)/compare -fn $(CURDIR)/$(BIN) -n $(N)

## differential-kube-admission: compare the function's Kubernetes MutatingAdmissionPolicy admission (every
##       resource it emits, every failure) with what k8s.io/apiserver v0.36.6's own mutating policy plugin
##       does on CREATE, on N generated scenarios from seed SEED (oracle/kubeadmission, a module of its own,
##       built into /tmp/kubeadmission-oracle); e.g. make differential-kube-admission N=500
KUBEADMISSION_ORACLE_OUT ?= /tmp/kubeadmission-oracle
.PHONY: differential-kube-admission
differential-kube-admission:
	$(MAKE) build
	cd oracle/kubeadmission && { GOFLAGS=-mod=mod GOPROXY=off $(GO) build -o $(KUBEADMISSION_ORACLE_OUT)/ ./cmd/... || \
	  { echo "module cache incomplete: fetching the oracle's dependencies through the Go module proxy"; \
	    GOFLAGS=-mod=mod $(GO) build -o $(KUBEADMISSION_ORACLE_OUT)/ ./cmd/... ; } ; }
	$(KUBEADMISSION_ORACLE_OUT)/compare -fn $(CURDIR)/$(BIN) -seed $(SEED) -n $(N)
