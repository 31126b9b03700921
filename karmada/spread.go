// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package karmada

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/apply-overrides/apply-overrides/policy"
)

// This file is the topology half of Karmada v1.16.0's spread-constraint
// selection (pkg/scheduler/core/spreadconstraint): the provider, region and
// zone groups with their scores (group_clusters.go), the search for the
// best combination of regions (select_groups.go) and the selection of
// clusters from those regions (select_clusters_by_region.go). Karmada
// scores every group before it selects anything, so a group whose score
// cannot be computed stops the scheduling even when the selection would
// not have needed that group.

// groupScoreUnit puts a group's replica figure ahead of its clusters'
// average score (at most 100 per cluster) when groups are compared.
const groupScoreUnit = 1000

// maxGroupSearchSteps bounds the search for region combinations. Karmada
// walks the combinations between the region constraint's minGroups and
// maxGroups depth first, one step per subset of regions it visits, so a
// fleet of n regions needs at most 2^n steps: fleets of up to 22 regions
// never reach this bound, which takes some tens of milliseconds. Larger
// fleets can need exponentially more time and memory (in Karmada too), so
// the render stops there and reports it instead of hanging.
var maxGroupSearchSteps = 1 << 22

// spreadCluster is a feasible cluster as the spread selection sees it
// (Karmada's ClusterDetailInfo).
type spreadCluster struct {
	cluster *policy.Cluster
	// score is the plugins' total score, which is 0 for every cluster of a
	// fresh binding; it is kept so that the selection reads like Karmada's.
	score int64
	// avail is the cluster's available replicas as the canonical order
	// uses them.
	avail int64
}

// topologyGroup is the feasible clusters sharing one provider, region or
// zone, in canonical order, with the group's score.
type topologyGroup struct {
	name     string
	score    int64
	clusters []spreadCluster
}

// topologyFields are the spread fields Karmada groups clusters by, in the
// order GroupClustersWithScore scores them; the order decides which group
// is reported when several cannot be scored.
var topologyFields = []string{"zone", "region", "provider"}

// topologyKeys is which groups of the field a cluster belongs to; a
// cluster may sit in several zones, and in no group when the field is
// empty (the SpreadConstraint filter has rejected such clusters already).
func topologyKeys(field string, c *policy.Cluster) []string {
	switch field {
	case "zone":
		return placementZones(c)
	case "region":
		if c.Region != "" {
			return []string{c.Region}
		}
	case "provider":
		if c.Provider != "" {
			return []string{c.Provider}
		}
	}
	return nil
}

// groupClusters groups the clusters by the field, sorted by group name for
// a deterministic result (Karmada keeps them in a map, and nothing it
// decides depends on the map's order). The clusters keep their order
// inside each group.
func groupClusters(field string, clusters []spreadCluster) []topologyGroup {
	index := map[string]int{}
	var groups []topologyGroup
	for _, c := range clusters {
		for _, k := range topologyKeys(field, c.cluster) {
			i, ok := index[k]
			if !ok {
				i = len(groups)
				index[k] = i
				groups = append(groups, topologyGroup{name: k})
			}
			groups[i].clusters = append(groups[i].clusters, c)
		}
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].name < groups[j].name })
	return groups
}

// groupScore is calcGroupScore. For Duplicated scheduling a group is worth
// the number of its clusters with room for every replica, then their
// average score. For Divided scheduling it is worth the replicas its
// leading clusters hold towards the group's share (replicas spread over
// minGroups groups), then their average score; the leading clusters are
// taken until there are max(clusterMinGroups, minGroups) of them and they
// hold the share. ok is false where Karmada v1.16.0 divides by zero: a
// Duplicated group none of whose clusters has room for the replicas.
func groupScore(clusters []spreadCluster, replicas int32, duplicated bool, minGroups, clusterMinGroups int) (score int64, ok bool) {
	if len(clusters) == 0 {
		return 0, true
	}
	if duplicated {
		var valid, sum int64
		for _, c := range clusters {
			if c.avail >= int64(replicas) {
				valid++
				sum += c.score
			}
		}
		if valid == 0 {
			return 0, false
		}
		return valid*groupScoreUnit + sum/valid, true
	}
	// Defaulting raises minGroups to at least 1 before the scheduler runs;
	// the guard only keeps a hand-made call from dividing by zero.
	minGroups = max(minGroups, 1)
	share := (int64(replicas) + int64(minGroups) - 1) / int64(minGroups)
	need := int64(max(clusterMinGroups, minGroups))
	var held, sum, taken int64
	for _, c := range clusters {
		held += c.avail
		sum += c.score
		taken++
		if taken >= need && held >= share {
			break
		}
	}
	if held < share {
		return held*groupScoreUnit + sum/int64(len(clusters)), true
	}
	return share*groupScoreUnit + sum/taken, true
}

// duplicatedPlacement is whether the binding copies its replicas to every
// cluster (replicaScheduling absent or Duplicated), which decides how
// groups are scored and that the selection ignores capacity.
func duplicatedPlacement(pl *placement) bool {
	rs := pl.ReplicaScheduling
	return rs == nil || rs.ReplicaSchedulingType == schedulingDuplicated
}

// scoreTopology is GroupClustersWithScore for the spread constraints by
// field: it scores the groups of every provider, region and zone
// constraint, as Karmada does before selecting, and returns the region
// groups (nil without a region constraint).
func scoreTopology(pl *placement, byField map[string]spreadConstraint, clusters []spreadCluster, replicas int32) ([]topologyGroup, error) {
	dup := duplicatedPlacement(pl)
	clusterMin := 0
	if c, ok := byField["cluster"]; ok {
		clusterMin = c.MinGroups
	}
	var regions []topologyGroup
	for _, field := range topologyFields {
		sc, ok := byField[field]
		if !ok {
			continue
		}
		groups := groupClusters(field, clusters)
		for i := range groups {
			s, ok := groupScore(groups[i].clusters, replicas, dup, sc.MinGroups, clusterMin)
			if !ok {
				return nil, fmt.Errorf("spreadConstraints (spreadByField %s) with Duplicated scheduling: no cluster of %s %q has room for the %d replicas (available: %s), and Karmada v1.16.0's scheduler panics on this input (a division by zero scoring the group, fixed in v1.16.3); give the clusters a status.resourceSummary with room for the replicas, or drop the %s constraint",
					field, field, groups[i].name, replicas, describeAvail(groups[i].clusters), field)
			}
			groups[i].score = s
		}
		if field == "region" {
			regions = groups
		}
	}
	return regions, nil
}

// describeAvail lists the clusters' available replicas for an error.
func describeAvail(clusters []spreadCluster) string {
	parts := make([]string, len(clusters))
	for i, c := range clusters {
		parts[i] = fmt.Sprintf("%s %d", c.cluster.Name, c.avail)
	}
	return strings.Join(parts, ", ")
}

// selectByRegion is selectBestClustersByRegion: pick the regions, take the
// first cluster of each, then fill up to the cluster constraint's
// maxGroups with the other clusters of those regions, best score first,
// then most available replicas, then name. It never checks capacity.
func selectByRegion(regions []topologyGroup, region, cluster spreadConstraint) ([]spreadCluster, error) {
	if len(regions) < region.MinGroups {
		return nil, fmt.Errorf("spreadConstraints: the feasible clusters span %d region(s), fewer than the region constraint's minGroups %d (Karmada: the number of feasible region is less than spreadConstraint.MinGroups); lower minGroups or give more clusters a spec.region",
			len(regions), region.MinGroups)
	}
	chosen, err := selectRegions(regions, region, cluster)
	if err != nil {
		return nil, err
	}
	if len(chosen) == 0 {
		return nil, fmt.Errorf("spreadConstraints: no combination of %d to %d region(s) holds the cluster constraint's minGroups %d clusters (Karmada: the number of clusters is less than the cluster spreadConstraint.MinGroups); lower the cluster minGroups or raise the region maxGroups",
			region.MinGroups, region.MaxGroups, cluster.MinGroups)
	}
	var selected, rest []spreadCluster
	for _, g := range chosen {
		selected = append(selected, g.clusters[0])
		rest = append(rest, g.clusters[1:]...)
	}
	need := min(len(selected)+len(rest), cluster.MaxGroups)
	if more := need - len(selected); more > 0 {
		sort.Slice(rest, func(i, j int) bool {
			if rest[i].score != rest[j].score {
				return rest[i].score > rest[j].score
			}
			if rest[i].avail != rest[j].avail {
				return rest[i].avail > rest[j].avail
			}
			return rest[i].cluster.Name < rest[j].cluster.Name
		})
		selected = append(selected, rest[:more]...)
	}
	return selected, nil
}

// selectRegions is Karmada's selectRegions: each region becomes a group
// whose value is its number of clusters and whose weight is its score, and
// the chosen groups come back as their regions, in the chosen path's order.
func selectRegions(regions []topologyGroup, region, cluster spreadConstraint) ([]topologyGroup, error) {
	byName := make(map[string]topologyGroup, len(regions))
	groups := make([]*pathGroup, 0, len(regions))
	for _, r := range regions {
		byName[r.name] = r
		groups = append(groups, &pathGroup{name: r.name, value: len(r.clusters), weight: r.score})
	}
	best, err := selectGroups(groups, region.MinGroups, region.MaxGroups, cluster.MinGroups)
	if err != nil || len(best) == 0 {
		return nil, err
	}
	out := make([]topologyGroup, len(best))
	for i, g := range best {
		out[i] = byName[g.name]
	}
	return out, nil
}

// pathGroup is a group in the search for a combination: value is what it
// contributes towards the target, weight how good it is.
type pathGroup struct {
	name   string
	value  int
	weight int64
}

// groupPath is a combination of groups the search found; id is the order
// of discovery, which breaks the last ties.
type groupPath struct {
	id     int
	groups []*pathGroup
	weight int64
	value  int
}

// prefixOf is whether p is a strictly shorter path whose groups, in order,
// start q.
func (p *groupPath) prefixOf(q *groupPath) bool {
	if len(p.groups) >= len(q.groups) {
		return false
	}
	for i, g := range p.groups {
		if q.groups[i].name != g.name {
			return false
		}
	}
	return true
}

// selectGroups is Karmada's selectGroups: among the combinations of
// minGroups to maxGroups groups whose values reach target, the best one
// (see bestPath), or nil when there is none.
func selectGroups(groups []*pathGroup, minGroups, maxGroups, target int) ([]*pathGroup, error) {
	if len(groups) == 0 {
		return nil, nil
	}
	paths, err := feasiblePaths(groups, minGroups, maxGroups, target)
	if err != nil || len(paths) == 0 {
		return nil, err
	}
	return bestPath(paths).groups, nil
}

// feasiblePaths is findFeasiblePaths: a depth-first search over the groups
// sorted by value ascending, weight descending and name, which records a
// path (and goes no deeper) as soon as its values reach the target with an
// allowed length. Karmada's search stops after the first branch at every
// level when there are exactly minGroups groups, since only the path of
// all groups can then be long enough; the shortcut is kept as Karmada has
// it, although it finds the same paths as the full search. Each recorded
// path has its groups sorted by weight descending, then name.
func feasiblePaths(groups []*pathGroup, minGroups, maxGroups, target int) ([]*groupPath, error) {
	sort.Slice(groups, func(i, j int) bool {
		if groups[i].value != groups[j].value {
			return groups[i].value < groups[j].value
		}
		if groups[i].weight != groups[j].weight {
			return groups[i].weight > groups[j].weight
		}
		return groups[i].name < groups[j].name
	})
	var paths []*groupPath
	var stack []*pathGroup
	steps := 0
	var walk func(sum, from int) bool
	walk = func(sum, from int) bool {
		if steps++; steps > maxGroupSearchSteps {
			return false
		}
		if sum >= target && len(stack) >= minGroups && len(stack) <= maxGroups {
			p := &groupPath{id: len(paths) + 1, groups: slices.Clone(stack)}
			for _, g := range p.groups {
				p.weight += g.weight
				p.value += g.value
			}
			sort.Slice(p.groups, func(i, j int) bool {
				if p.groups[i].weight != p.groups[j].weight {
					return p.groups[i].weight > p.groups[j].weight
				}
				return p.groups[i].name < p.groups[j].name
			})
			paths = append(paths, p)
			return true
		}
		if len(stack) >= maxGroups {
			return true
		}
		for i := from; i < len(groups); i++ {
			stack = append(stack, groups[i])
			if !walk(sum+groups[i].value, i+1) {
				return false
			}
			if len(groups) == minGroups {
				break
			}
			stack = stack[:len(stack)-1]
		}
		return true
	}
	if !walk(0, 0) {
		return nil, fmt.Errorf("spreadConstraints: Karmada's search for the best combination of regions needs more than %d steps here (it grows exponentially with the number of regions) and is not reproduced that far; narrow the region constraint's minGroups..maxGroups range or the regions the clusters span", maxGroupSearchSteps)
	}
	return paths, nil
}

// bestPath is prioritizePaths: the path with the highest weight, then the
// highest value, then the earliest found; then, going down that ranking,
// any path that is a strict prefix of the pick replaces it, so that fewer
// groups win when the best groups already suffice.
func bestPath(paths []*groupPath) *groupPath {
	if len(paths) == 1 {
		return paths[0]
	}
	sort.Slice(paths, func(i, j int) bool {
		if paths[i].weight != paths[j].weight {
			return paths[i].weight > paths[j].weight
		}
		if paths[i].value != paths[j].value {
			return paths[i].value > paths[j].value
		}
		return paths[i].id < paths[j].id
	})
	best := paths[0]
	for _, p := range paths[1:] {
		if p.prefixOf(best) {
			best = p
		}
	}
	return best
}
