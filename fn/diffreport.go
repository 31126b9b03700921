// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// writeJSON writes the report as one indented JSON object.
func (rep *diffReport) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rep); err != nil {
		return fmt.Errorf("encode the JSON report: %w", err)
	}
	return nil
}

// writeMarkdown writes the report for a pull-request comment: a title, a
// summary, the matrix of the resources that differ on some cluster, then
// a diff per resource and group of clusters with the same diff. With
// maxBytes > 0 it stays under maxBytes: the rows and diffs that do not fit
// are left out, in report order, and a note says how many.
func (rep *diffReport) writeMarkdown(w io.Writer, maxBytes int) error {
	var rows, sections []string
	for _, row := range rep.Resources {
		if !row.differs(rep.Compare) {
			continue
		}
		rows = append(rows, rep.tableRow(row))
		sections = append(sections, row.sections()...)
	}
	head := rep.markdownHead(len(rows) > 0)
	var tail string
	if rest := len(rep.Resources) - len(rows); rest > 0 && len(rows) > 0 {
		tail = fmt.Sprintf("\n%d more resource(s), the same on every cluster, are not listed.\n", rest)
	}
	size := len(head) + len(tail)
	for _, s := range rows {
		size += len(s)
	}
	for _, s := range sections {
		size += len(s)
	}
	if maxBytes == 0 || size <= maxBytes {
		_, err := io.WriteString(w, head+strings.Join(rows, "")+tail+strings.Join(sections, ""))
		return err
	}
	// Cut: keep the rows, then the diffs, that fit beside a note sized
	// for the largest counts it may state.
	note := func(rowsKept, diffsKept int) string {
		left := fmt.Sprintf("%d of %d diffs are left out", len(sections)-diffsKept, len(sections))
		if rowsKept < len(rows) {
			left = fmt.Sprintf("%d of %d rows and %s", len(rows)-rowsKept, len(rows), left)
		}
		return fmt.Sprintf("\n> **Cut to stay under %d bytes** (GitHub's comment limit): %s. "+
			"Run `apply-overrides diff` on the same inputs for the whole report, or `-o json`.\n", maxBytes, left)
	}
	budget := maxBytes - len(head) - len(tail) - len(note(0, 0))
	if budget < 0 {
		return fmt.Errorf("--max-bytes %d leaves no room for the report's summary (%d bytes): raise it, or pass 0 for no limit", maxBytes, maxBytes-budget)
	}
	var keptRows, keptSections int
	for keptRows < len(rows) && len(rows[keptRows]) <= budget {
		budget -= len(rows[keptRows])
		keptRows++
	}
	for keptRows == len(rows) && keptSections < len(sections) && len(sections[keptSections]) <= budget {
		budget -= len(sections[keptSections])
		keptSections++
	}
	_, err := io.WriteString(w, head+strings.Join(rows[:keptRows], "")+tail+note(keptRows, keptSections)+strings.Join(sections[:keptSections], ""))
	return err
}

// markdownHead is the title and the summary, then, with a table, its
// header.
func (rep *diffReport) markdownHead(table bool) string {
	var b strings.Builder
	b.WriteString("## apply-overrides diff\n\n")
	what := "Each cluster compared with the input"
	if rep.Compare == labelBase {
		what = "Each cluster compared with the base revision"
	}
	s := rep.Summary
	fmt.Fprintf(&b, "%s: %d resource(s) on %d cluster(s)", what, s.Resources, len(rep.Clusters))
	var counts []string
	for _, c := range []struct {
		n    int
		what string
	}{{s.Changed, statusChanged}, {s.Added, statusAdded}, {s.Removed, statusRemoved}, {s.NotReceived, notReceivedText}, {s.Unchanged, statusUnchanged}} {
		if c.n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	if len(counts) > 0 {
		fmt.Fprintf(&b, "; resource × cluster: %s", strings.Join(counts, ", "))
	}
	b.WriteString(".\n")
	if !s.Differs {
		b.WriteString("\nNo differences.\n")
	}
	if table {
		b.WriteString("\n| resource |")
		for _, c := range rep.Clusters {
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n| --- |" + strings.Repeat(" --- |", len(rep.Clusters)) + "\n")
	}
	return b.String()
}

// tableRow is a row of the matrix.
func (rep *diffReport) tableRow(row diffRow) string {
	var b strings.Builder
	b.WriteString("| " + row.ref() + " |")
	for _, c := range row.Clusters {
		b.WriteString(" " + c.text() + " |")
	}
	b.WriteString("\n")
	return b.String()
}

// differs reports whether any cell of the row is a difference.
func (row diffRow) differs(compare string) bool {
	for _, c := range row.Clusters {
		if c.differs(compare) {
			return true
		}
	}
	return false
}

// ref names the row's resource: "apps/v1 Deployment shop/web".
func (row diffRow) ref() string {
	name := row.Name
	if row.Namespace != "" {
		name = row.Namespace + "/" + name
	}
	return row.APIVersion + " " + row.Kind + " " + name
}

// notReceivedText is statusNotReceived in the Markdown report.
const notReceivedText = "not received"

// text is a cell of the matrix.
func (c diffCell) text() string {
	switch {
	case c.Status == statusChanged && c.Fields != nil:
		return fieldsText(*c.Fields)
	case c.Status == statusNotReceived:
		return notReceivedText
	}
	return c.Status
}

// sections are the row's diffs, one per group of clusters with the same
// status and diff, in the order of each group's first cluster.
func (row diffRow) sections() []string {
	type group struct {
		clusters []string
		cell     diffCell
	}
	var groups []*group
	for _, c := range row.Clusters {
		if c.Diff == "" {
			continue
		}
		found := false
		for _, g := range groups {
			if g.cell.text() == c.text() && g.cell.Diff == c.Diff {
				g.clusters = append(g.clusters, c.Cluster)
				found = true
				break
			}
		}
		if !found {
			groups = append(groups, &group{clusters: []string{c.Cluster}, cell: c})
		}
	}
	out := make([]string, len(groups))
	for i, g := range groups {
		var b strings.Builder
		fmt.Fprintf(&b, "\n### %s on %s: %s\n\n", row.ref(), strings.Join(g.clusters, ", "), g.cell.text())
		if row.File != "" {
			fmt.Fprintf(&b, "File `%s`.\n\n", row.File)
		}
		fence := strings.Repeat("`", max(3, longestRun(g.cell.Diff, '`')+1))
		b.WriteString(fence + "diff\n" + g.cell.Diff + fence + "\n")
		out[i] = b.String()
	}
	return out
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	return longest
}

// fieldsText is a changed cell's count in words.
func fieldsText(n int) string {
	switch n {
	case 0:
		return "changed (comments or layout only)"
	case 1:
		return "changed 1 field"
	}
	return "changed " + strconv.Itoa(n) + " fields"
}
