module github.com/kubewharf/katalyst-api

go 1.22

require k8s.io/api v0.34.1
