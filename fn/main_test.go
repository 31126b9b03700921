// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// syncBuffer is a bytes.Buffer safe for the hint's timer goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestTerminalHint: a reader that stays silent gets the hint; one that
// answers in time does not.
func TestTerminalHint(t *testing.T) {
	t.Run("silent", func(t *testing.T) {
		pr, pw := io.Pipe()
		var stderr syncBuffer
		r := hintAfter(pr, &stderr, time.Millisecond)
		require.Eventually(t, func() bool { return stderr.String() != "" }, 5*time.Second, time.Millisecond)
		assert.Equal(t, terminalHint+"\n", stderr.String())
		go func() { _, _ = pw.Write([]byte("x")); _ = pw.Close() }()
		b, err := io.ReadAll(r)
		require.NoError(t, err)
		assert.Equal(t, "x", string(b))
	})
	t.Run("answers", func(t *testing.T) {
		var stderr syncBuffer
		r := hintAfter(strings.NewReader("data"), &stderr, time.Hour)
		b, err := io.ReadAll(r)
		require.NoError(t, err)
		assert.Equal(t, "data", string(b))
		assert.False(t, r.(*hintReader).timer.Stop(), "the timer was stopped by the first read")
		assert.Empty(t, stderr.String())
	})
}

// TestMainStreams: Main writes the list to stdout once, the errors and
// warnings to stderr with the file and field of their result, and exits 1
// on an error result.
func TestMainStreams(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main(nil, strings.NewReader(rlHead+"items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    annotations: {config.kubernetes.io/path: cm.yaml}\n"+rlFC), &stdout, &stderr)
	assert.Equal(t, 1, code)
	assert.Equal(t, "[error] items[0] (v1 ConfigMap, file cm.yaml, line 6): metadata.name is missing or empty: every resource needs a name\n", stderr.String())
	assert.Contains(t, stdout.String(), "items: []\nresults:\n")

	stdout.Reset()
	stderr.Reset()
	code = Main(nil, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr.String(), "[error] no input")

	stdout.Reset()
	stderr.Reset()
	code = Main([]string{"--bogus"}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, 2, code)
	assert.Empty(t, stdout.String())
}

func TestDescribeResult(t *testing.T) {
	for _, c := range []struct {
		r    framework.Result
		want string
	}{
		{framework.Result{Severity: framework.Error, Message: "m"}, "[error] m"},
		{framework.Result{Severity: framework.Warning, Message: "m", File: &framework.File{Path: "a.yaml"}, Field: &framework.Field{Path: "spec.x"}}, "[warning] m (file a.yaml, field spec.x)"},
		{framework.Result{Severity: framework.Error, Message: "m in a.yaml at spec.x", File: &framework.File{Path: "a.yaml"}, Field: &framework.Field{Path: "spec.x"}}, "[error] m in a.yaml at spec.x"},
		{framework.Result{Severity: framework.Error, Message: "m", File: &framework.File{Path: "web.yaml"}, Tags: map[string]string{policyFileTag: "policies.yaml"}}, "[error] m (file web.yaml, policy file policies.yaml)"},
	} {
		assert.Equal(t, c.want, describeResult(&c.r))
	}
}

// TestWarmers: the dialects that start work from the input's text before
// it is split (warmer) are Kyverno's alone, which loads kyaml's OpenAPI
// schema early; an input naming no Kyverno version starts nothing.
func TestWarmers(t *testing.T) {
	var warmers []string
	for _, d := range Dialects {
		if _, ok := d.(warmer); ok {
			warmers = append(warmers, fmt.Sprintf("%T", d))
		}
	}
	assert.Equal(t, []string{"kyverno.Dialect"}, warmers)
	warm(nil)
	warm([]byte("apiVersion: kyverno.io/v1\nkind: ClusterPolicy\n"))
}
