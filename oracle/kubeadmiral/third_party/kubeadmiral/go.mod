module github.com/kubewharf/kubeadmiral

go 1.22
