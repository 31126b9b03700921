// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package compare

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/apply-overrides/apply-overrides/oracle/harness/rl"
	"github.com/apply-overrides/apply-overrides/oracle/harness/scenario"
)

// fakeEnv makes the test binary act as the function: it returns the input
// items but for those annotated "fake/skip: <cluster>" for the cluster it
// renders, sets spec.replicas to "fake/replicas" where given, and fails
// with the declined message for a cluster named "unknown".
const fakeEnv = "HARNESS_FAKE_FUNCTION"

const declined = "export the objects with their status"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEnv) == "1" {
		os.Exit(fakeFunction())
	}
	os.Exit(m.Run())
}

func fakeFunction() int {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		return 2
	}
	in, err := rl.Decode(data)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	cluster, _, _ := unstructured.NestedString(in.FunctionConfig.Object, "data", "cluster")
	if cluster == "unknown" {
		fmt.Fprintln(os.Stderr, "placement: "+declined)
		return 1
	}
	out := &rl.ResourceList{}
	for _, it := range in.Items {
		a := it.GetAnnotations()
		if a["fake/skip"] == cluster {
			continue
		}
		if r, ok := a["fake/replicas"]; ok {
			var n int64
			fmt.Sscan(r, &n)
			_ = unstructured.SetNestedField(it.Object, n, "spec", "replicas")
		}
		out.Items = append(out.Items, it)
	}
	data, err = rl.Encode(out)
	if err != nil {
		return 2
	}
	os.Stdout.Write(data)
	return 0
}

func item(kind, name string, annotations map[string]string) map[string]any {
	meta := map[string]any{"name": name, "namespace": "default"}
	if len(annotations) > 0 {
		meta["annotations"] = scenario.Map(annotations)
	}
	return map[string]any{"apiVersion": "apps/v1", "kind": kind, "metadata": meta, "spec": map[string]any{"replicas": int64(2)}}
}

func two(n int64) *int64 { return &n }

// fakeOracle places every Deployment on every cluster with 2 replicas and
// adds the ignored control-plane object the function keeps in its output.
func fakeOracle(clusters ...string) *Oracle {
	return &Oracle{
		Name: "Fake",
		Run: func(items []*unstructured.Unstructured) (*Outcome, error) {
			out := &Outcome{Clusters: map[string][]Placed{}}
			for _, c := range clusters {
				out.Clusters[c] = nil
				for _, it := range items {
					if it.GetKind() == "Deployment" {
						out.Clusters[c] = append(out.Clusters[c], Placed{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: it.GetName(),
							Fields: map[string]*int64{"replicas": two(2)}})
						out.Decisions = append(out.Decisions, Decision{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: it.GetName(),
							Details: []string{"scheduled=" + c}})
					}
				}
			}
			return out, nil
		},
		Fields:        []string{"replicas"},
		IgnoredGroups: []string{"control.example/"},
		Declined:      declined,
	}
}

func compareItems(t *testing.T, o *Oracle, items ...map[string]any) *Report {
	t.Helper()
	t.Setenv(fakeEnv, "1")
	fn, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	all := append([]any{map[string]any{"apiVersion": "control.example/v1", "kind": "Policy", "metadata": map[string]any{"name": "p"}}}, toAny(items)...)
	return o.Scenario("test", scenario.List(7, all), fn, time.Minute)
}

func toAny(ms []map[string]any) []any {
	out := make([]any, len(ms))
	for i, x := range ms {
		out[i] = x
	}
	return out
}

func TestAgree(t *testing.T) {
	rep := compareItems(t, fakeOracle("a", "b"), item("Deployment", "web", nil), item("StatefulSet", "db", map[string]string{"fake/skip": "a"}))
	// The StatefulSet the oracle does not place is a presence
	// disagreement on b only.
	if rep.Seed != "7" || len(rep.Disagreements) != 1 || rep.Disagreements[0].String() != `cluster=b resource="apps/v1 StatefulSet default/db" field=presence oracle=absent function=present` {
		t.Fatalf("report %+v", rep)
	}
	if len(rep.Decisions) != 0 {
		t.Errorf("decisions %v for a resource the oracle has none of", rep.Decisions)
	}
}

func TestFieldsAndDecisions(t *testing.T) {
	rep := compareItems(t, fakeOracle("a", "b"), item("Deployment", "web", map[string]string{"fake/replicas": "3", "fake/skip": "b"}))
	var got []string
	for _, d := range rep.Disagreements {
		got = append(got, d.String())
	}
	want := []string{
		`cluster=a resource="apps/v1 Deployment default/web" field=replicas oracle=2 function=3`,
		`cluster=b resource="apps/v1 Deployment default/web" field=presence oracle=present function=absent`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("disagreements\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(rep.Decisions) != 2 || rep.Decisions[0].String() != "apps/v1 Deployment default/web policy=none scheduled=a" {
		t.Errorf("decisions %v", rep.Decisions)
	}
}

func TestDeclinedAndAccepted(t *testing.T) {
	o := fakeOracle("a", "unknown")
	var seen map[string]map[string]Placed
	run := o.Run
	o.Run = func(items []*unstructured.Unstructured) (*Outcome, error) {
		out, err := run(items)
		out.Accept = func(views map[string]map[string]Placed) map[string]bool {
			seen = views
			return map[string]bool{Key("apps/v1", "Deployment", "default", "web"): true}
		}
		return out, err
	}
	rep := compareItems(t, o, item("Deployment", "web", map[string]string{"fake/replicas": "5"}))
	if !rep.Agree() || fmt.Sprint(rep.Declined) != "[unknown]" {
		t.Fatalf("report %+v", rep)
	}
	if len(seen) != 1 || Int(seen["a"][Key("apps/v1", "Deployment", "default", "web")].Fields["replicas"]) != "5" {
		t.Errorf("Accept saw %v", seen)
	}
}

func TestOraclePanic(t *testing.T) {
	o := fakeOracle()
	o.Run = func([]*unstructured.Unstructured) (*Outcome, error) { panic("boom") }
	rep := compareItems(t, o)
	if rep.OracleError != "panic in Fake's code: boom" || rep.Agree() {
		t.Errorf("report %+v", rep)
	}
}
