// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package test

// commonBadPolicies are the rows every dialect shares: metadata as the
// apiserver validates it, duplicates, misspelt apiVersions and kinds.
var commonBadPolicies = map[string]badPolicy{
	// metadata
	"karmada labels a string": {policies: "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: x, labels: \"team=a\"}\nspec: {}\n",
		want: []string{"ClusterOverridePolicy x", "metadata.labels", "expected a mapping of strings"}},
	"karmada placeholder name": {policies: "apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: RESOURCE_NAME-override, namespace: default}\nspec: {}\n",
		want: []string{"OverridePolicy default/RESOURCE_NAME-override: metadata.name: Invalid value: \"RESOURCE_NAME-override\": a lowercase RFC 1123 subdomain"}},
	"karmada namespace not a label": {policies: "apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: x, namespace: my.ns}\nspec: {}\n",
		want: []string{"OverridePolicy my.ns/x: metadata.namespace: Invalid value: \"my.ns\": must not contain dots"}},
	"karmada label value invalid": {policies: "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: x, labels: {team: \"a b\"}}\nspec: {}\n",
		want: []string{"ClusterOverridePolicy x: metadata.labels: Invalid value: \"a b\""}},
	"karmada annotations a list": {policies: "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata:\n  name: x\n  annotations: [a]\nspec: {}\n", file: "-",
		want: []string{"ClusterOverridePolicy x", "metadata.annotations", "expected a mapping of strings"}},
	"karmada unknown metadata field": {policies: "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: x, label: {a: b}}\nspec: {}\n",
		want: []string{"ClusterOverridePolicy x: metadata.label: Forbidden: unknown field"}},
	"ack one placeholder name": {policies: "apiVersion: policy.one.alibabacloud.com/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: Demo}\nspec: {}\n",
		want: []string{"ClusterOverridePolicy Demo: metadata.name: Invalid value: \"Demo\""}},
	"kubeadmiral labels a string": {policies: "apiVersion: core.kubeadmiral.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: x, labels: \"team=a\"}\nspec: {}\n",
		want: []string{"ClusterOverridePolicy x", "metadata.labels", "expected a mapping of strings"}},
	"kubeadmiral bad name": {policies: "apiVersion: core.kubeadmiral.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: My_Policy}\nspec: {}\n",
		want: []string{"ClusterOverridePolicy My_Policy: metadata.name: Invalid value: \"My_Policy\""}},
	"kyverno labels a string": {policies: "apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata: {name: x, labels: \"team=a\"}\nspec: {rules: []}\n",
		want: []string{"ClusterPolicy x", "metadata.labels", "expected a mapping of strings"}},
	"kyverno bad name": {policies: "apiVersion: kyverno.io/v1\nkind: Policy\nmetadata: {name: add_labels, namespace: default}\nspec: {rules: []}\n",
		want: []string{"Policy default/add_labels: metadata.name: Invalid value: \"add_labels\""}},
	"kyverno bad annotation key": {policies: "apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata: {name: x, annotations: {\"policies.kyverno.io/ title\": a}}\nspec: {rules: []}\n",
		want: []string{"ClusterPolicy x: metadata.annotations: Invalid value: \"policies.kyverno.io/ title\""}},

	// duplicates name the first copy's file
	"karmada duplicate across groups": {policies: "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: x}\nspec: {}\n---\napiVersion: policy.one.alibabacloud.com/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: x}\nspec: {}\n",
		want: []string{"ClusterOverridePolicy x: duplicate ClusterOverridePolicy x: a policy of that name was already given in policies.yaml (document index 0)"}},
	"kubeadmiral duplicate": {policies: "apiVersion: core.kubeadmiral.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: x}\nspec: {}\n---\napiVersion: core.kubeadmiral.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: x}\nspec: {}\n",
		want: []string{"ClusterOverridePolicy x", "items[1] in policies.yaml"}},
	"kyverno duplicate": {policies: "apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata: {name: x}\nspec: {rules: []}\n---\napiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata: {name: x}\nspec: {rules: []}\n",
		want: []string{"ClusterPolicy x", "items[1] in policies.yaml"}},

	// misspelt groups and kinds
	"karmada group missing a label": {policies: "apiVersion: karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: x, namespace: default}\nspec: {}\n",
		want: []string{"OverridePolicy default/x: karmada.io/v1alpha1 OverridePolicy looks like a Karmada OverridePolicy, whose apiVersion is policy.karmada.io/v1alpha1"}},
	"karmada group typo": {policies: "apiVersion: policy.karmda.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: x}\nspec: {}\n",
		want: []string{"looks like a Karmada ClusterOverridePolicy, whose apiVersion is policy.karmada.io/v1alpha1"}},
	"karmada kind case": {policies: "apiVersion: policy.karmada.io/v1alpha1\nkind: Overridepolicy\nmetadata: {name: x, namespace: default}\nspec: {}\n",
		want: []string{"looks like a Karmada OverridePolicy, whose kind is spelt OverridePolicy"}},
	"ack one group missing a label": {policies: "apiVersion: one.alibabacloud.com/v1alpha1\nkind: OverridePolicy\nmetadata: {name: x, namespace: default}\nspec: {}\n",
		want: []string{"looks like an ACK One OverridePolicy, whose apiVersion is policy.one.alibabacloud.com/v1alpha1"}},
	"karmada cluster version": {policies: "apiVersion: cluster.karmada.io/v1\nkind: Cluster\nmetadata: {name: member2}\nspec: {}\n",
		want: []string{"Cluster member2: cluster.karmada.io/v1 Cluster looks like a Karmada Cluster, but cluster.karmada.io/v1 is not supported"}},
	"karmada cluster group": {policies: "apiVersion: karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: member2}\n",
		want: []string{"looks like a Karmada Cluster, whose apiVersion is cluster.karmada.io/v1alpha1"}},
	"kubeadmiral group missing a label": {policies: "apiVersion: kubeadmiral.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: x, namespace: default}\nspec: {}\n",
		want: []string{"looks like a KubeAdmiral OverridePolicy, whose apiVersion is core.kubeadmiral.io/v1alpha1"}},
	"kubeadmiral cluster version": {policies: "apiVersion: core.kubeadmiral.io/v1beta1\nkind: FederatedCluster\nmetadata: {name: member2}\n",
		want: []string{"looks like a KubeAdmiral FederatedCluster, but core.kubeadmiral.io/v1beta1 is not supported"}},
	"kyverno group": {policies: "apiVersion: kyverno/v1\nkind: ClusterPolicy\nmetadata: {name: x}\nspec: {rules: []}\n",
		want: []string{"looks like a Kyverno ClusterPolicy, whose apiVersion is kyverno.io/v1"}},
	"kyverno cel group": {policies: "apiVersion: policies.kyverno.io/v1alpha1\nkind: ClusterPolicy\nmetadata: {name: x}\nspec: {rules: []}\n",
		want: []string{"looks like a Kyverno ClusterPolicy, whose apiVersion is kyverno.io/v1"}},
	"kyverno kind case": {policies: "apiVersion: kyverno.io/v1\nkind: clusterPolicy\nmetadata: {name: x}\nspec: {rules: []}\n",
		want: []string{"looks like a Kyverno ClusterPolicy, whose kind is spelt ClusterPolicy"}},
	"no group": {policies: "apiVersion: v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: x}\nspec: {}\n",
		want: []string{"v1alpha1 ClusterOverridePolicy looks like a Karmada ClusterOverridePolicy"}},
}
