// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/apply-overrides/apply-overrides/admissionpolicy"
	"github.com/apply-overrides/apply-overrides/internal/resourcelist"
	"github.com/apply-overrides/apply-overrides/kyverno"
)

// The build without CEL hands over every input that holds an object a CEL
// dialect claims: each such apiVersion names a CEL group.
func TestCELGroupsCoverTheCELDialects(t *testing.T) {
	for _, av := range []string{"admissionregistration.k8s.io/v1", "admissionregistration.k8s.io/v1beta1", "admissionregistration.k8s.io/v1alpha1", "admissionregistration.k8s.io/v2"} {
		for _, kind := range []string{"MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding"} {
			claimed, _ := admissionpolicy.Dialect{}.Claims(av, kind)
			assert.True(t, claimed, "%s %s", av, kind)
			assert.Equal(t, "admissionregistration.k8s.io", celGroupIn([]byte("apiVersion: "+av+"\nkind: "+kind)))
		}
	}
	for _, av := range []string{"policies.kyverno.io/v1", "policies.kyverno.io/v1beta1", "policies.kyverno.io/v1alpha1", "policies.kyverno.io/v9"} {
		for _, kind := range []string{"MutatingPolicy", "NamespacedMutatingPolicy"} {
			claimed, _ := kyverno.Dialect{}.Claims(av, kind)
			assert.True(t, claimed, "%s %s", av, kind)
			assert.Equal(t, "policies.kyverno.io", celGroupIn([]byte(`{"apiVersion":"`+av+`","kind":"`+kind+`"}`)))
		}
	}
	assert.Empty(t, celGroupIn([]byte("apiVersion: kyverno.io/v1\nkind: ClusterPolicy\n")))
}

// A group named only as the prefix of a map key (the policies.kyverno.io/
// annotations of Kyverno's sample policies) is no CEL object; any other
// mention is taken for one.
func TestCELGroupIn(t *testing.T) {
	for text, want := range map[string]string{
		"metadata:\n  annotations:\n    policies.kyverno.io/title: Add labels\n    policies.kyverno.io/category: Other\n": "",
		`{"metadata":{"annotations":{"policies.kyverno.io/description":"x"}}}`:                                            "",
		"metadata: {annotations: {policies.kyverno.io/subject: Pod}}":                                                     "",
		"annotations:\n  'policies.kyverno.io/severity' : medium\n":                                                       "",
		"labels:\n  admissionregistration.k8s.io/x:\n":                                                                    "",
		"labels:\n  admissionregistration.k8s.io/x:":                                                                      "",
		"apiVersion: policies.kyverno.io/v1alpha1\nkind: MutatingPolicy\n":                                                "policies.kyverno.io",
		"annotations:\n  policies.kyverno.io/title: x\n---\napiVersion: policies.kyverno.io/v1\n":                         "policies.kyverno.io",
		"apiVersion:\n  policies.kyverno.io/v1\n":                                                                         "policies.kyverno.io",
		`{"kind":"MutatingPolicy","apiVersion":"policies.kyverno.io/v1"}`:                                                 "policies.kyverno.io",
		"{apiVersion: policies.kyverno.io/v1, kind: MutatingPolicy}":                                                      "policies.kyverno.io",
		"apiVersion: admissionregistration.k8s.io/v1:x\n":                                                                 "admissionregistration.k8s.io",
		"description: see policies.kyverno.io/v1 MutatingPolicy\n":                                                        "policies.kyverno.io",
		"# policies.kyverno.io\n":                                                                                         "policies.kyverno.io",
		"apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicy\n":                                    "admissionregistration.k8s.io",
	} {
		assert.Equal(t, want, celGroupIn([]byte(text)), text)
	}
}

func TestPlanHandOver(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	require.NoError(t, os.MkdirAll(filepath.Join(plain, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(plain, "sub", "cm.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"), 0o644))
	cel := filepath.Join(dir, "cel")
	require.NoError(t, os.MkdirAll(filepath.Join(cel, "policies"), 0o755))
	mapFile := filepath.Join(cel, "policies", "map.yaml")
	require.NoError(t, os.WriteFile(mapFile, []byte("apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicy\nmetadata: {name: p}\n"), 0o644))
	celList := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: policies.kyverno.io/v1\n  kind: MutatingPolicy\n  metadata: {name: m}\n"

	for _, tc := range []struct {
		name      string
		args      []string
		stdin     string
		where     string // "" when the run stays
		readStdin bool   // rest serves stdin's bytes
	}{
		{name: "krm, no CEL", stdin: "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n", readStdin: true},
		{name: "krm, CEL", stdin: celList, where: "stdin", readStdin: true},
		{name: "render of a directory", args: []string{"render", "--all", plain}, stdin: celList},
		{name: "render of a directory with a MutatingAdmissionPolicy", args: []string{"render", "--all", cel}, where: mapFile},
		{name: "render of a file", args: []string{"render", mapFile}, where: mapFile},
		{name: "render of stdin", args: []string{"render", "--cluster", "m1"}, stdin: celList, where: "stdin", readStdin: true},
		{name: "render of stdin and a directory", args: []string{"render", plain, "-"}, stdin: "kind: ConfigMap\n", readStdin: true},
		{name: "diff, the base has CEL", args: []string{"diff", "--all", "--base", cel, plain}, where: mapFile},
		{name: "diff, stdin base", args: []string{"diff", "--all", "--base", "-", plain}, stdin: celList, where: "stdin", readStdin: true},
		{name: "version", args: []string{"--version"}, stdin: celList},
		{name: "bad flag", args: []string{"render", "--nope"}, stdin: celList},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdin := strings.NewReader(tc.stdin)
			h, rest := planHandOver(tc.args, stdin, io.Discard)
			if tc.where == "" {
				assert.Nil(t, h)
			} else {
				require.NotNil(t, h)
				assert.Equal(t, tc.where, h.where)
				assert.Equal(t, tc.args, h.args)
				child, err := io.ReadAll(h.stdin)
				require.NoError(t, err)
				assert.Equal(t, tc.stdin, string(child), "the child reads the same input")
			}
			if tc.readStdin {
				_, ok := rest.(*resourcelist.Preread)
				assert.True(t, ok, "stdin read ahead")
				data, err := resourcelist.ReadAll(rest)
				require.NoError(t, err)
				assert.Equal(t, tc.stdin, string(data))
			} else {
				assert.Same(t, stdin, rest, "stdin untouched")
			}
		})
	}
}

// A stand-in for apply-overrides-cel: it prints its arguments, its input
// and the hand-over mark, and exits with status 7.
const fakeCEL = "#!/bin/sh\necho \"args: $*\"\necho \"handed over: $APPLY_OVERRIDES_HANDED_OVER\"\ncat\necho oops >&2\nexit 7\n"

func TestHandOverRuns(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "apply-overrides-cel")
	require.NoError(t, os.WriteFile(prog, []byte(fakeCEL), 0o755))
	t.Setenv(CELEnv, prog)
	t.Setenv(handedOverEnv, "")
	h := &handOver{args: []string{"render", "--all"}, stdin: strings.NewReader("kind: X\n"), where: "stdin", group: "policies.kyverno.io"}
	var out, errb bytes.Buffer
	code := h.run(&out, &errb)
	assert.Equal(t, 7, code, "the child's exit status")
	assert.Equal(t, "args: render --all\nhanded over: 1\nkind: X\n", out.String())
	assert.Equal(t, "oops\n", errb.String())
}

func TestHandOverMissing(t *testing.T) {
	t.Setenv(CELEnv, "")
	t.Setenv("PATH", t.TempDir())
	t.Setenv(handedOverEnv, "")
	self, err := os.Executable()
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(filepath.Dir(self), CELProgram)); err == nil {
		t.Skip("an apply-overrides-cel lies beside the test binary")
	}
	var out, errb bytes.Buffer
	h := &handOver{args: []string{"render", "--all", "policies"}, where: "policies/mpol.yaml", group: "policies.kyverno.io"}
	assert.Equal(t, 1, h.run(&out, &errb))
	assert.Empty(t, out.String())
	msg := errb.String()
	assert.True(t, strings.HasPrefix(msg, "apply-overrides render: the input holds policies.kyverno.io objects (first seen in policies/mpol.yaml), which only apply-overrides-cel evaluates (Kubernetes MutatingAdmissionPolicies, Kyverno's CEL MutatingPolicies), and it was not found: looked for $APPLY_OVERRIDES_CEL (unset), "+filepath.Join(filepath.Dir(self), CELProgram)+", apply-overrides-cel on PATH; build both programs with make build"), msg)

	// The KRM function fails as it fails on any error: a ResourceList
	// with the error result.
	out.Reset()
	errb.Reset()
	h = &handOver{stdin: strings.NewReader(""), where: "stdin", group: "admissionregistration.k8s.io", krm: true}
	assert.Equal(t, 1, h.run(&out, &errb))
	assert.Contains(t, out.String(), "kind: ResourceList")
	assert.Contains(t, out.String(), "severity: error")
	assert.Contains(t, errb.String(), "[error] the input holds admissionregistration.k8s.io objects (first seen in stdin)")
}

// $APPLY_OVERRIDES_CEL naming a build without CEL fails instead of
// handing over again and again.
func TestHandOverOnce(t *testing.T) {
	prog := filepath.Join(t.TempDir(), "apply-overrides")
	require.NoError(t, os.WriteFile(prog, []byte(fakeCEL), 0o755))
	t.Setenv(CELEnv, prog)
	t.Setenv(handedOverEnv, "1")
	var out, errb bytes.Buffer
	h := &handOver{args: []string{"diff"}, where: "stdin", group: "policies.kyverno.io"}
	assert.Equal(t, 1, h.run(&out, &errb))
	assert.Contains(t, errb.String(), prog+" is itself a build without CEL (built with -tags nocel)")
	assert.Empty(t, out.String())
}
