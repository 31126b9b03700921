// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"math"
	"reflect"
	"strconv"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/apply-overrides/apply-overrides/internal/wildcard"
)

// equals implements Equals/Equal (upstream operator/equal.go). The key's
// type decides the comparison:
//   - bool: only a bool value can match ("true" does not);
//   - int64: int/int64, an integral float64, or a base-10 integer string;
//   - float64: float64, an int/int64 when the key is integral, or a string
//     strconv.ParseFloat accepts;
//   - string: first durations (see [durationPair]: the key or the value is a
//     Go duration string, the other side may be a number of seconds), then,
//     when the key is a resource quantity and the value a string, quantity
//     equality (a value that is no quantity is false, even "1*"), otherwise
//     the value is a wildcard pattern matched against the key;
//   - map or list: deep equality with a value of the same kind (an int64
//     never equals a float64, see [Evaluate] for where int64 comes from);
//   - anything else, e.g. nil: false.
//
// A string key never equals a number value ("5" vs 5 is false) while a
// number key does equal a numeric string (5 vs "5" is true).
func equals(key, value any) bool {
	switch k := key.(type) {
	case bool:
		v, ok := value.(bool)
		return ok && k == v
	case int:
		return intEquals(int64(k), value)
	case int64:
		return intEquals(k, value)
	case float64:
		return floatEquals(k, value)
	case string:
		return stringEquals(k, value)
	case map[string]any:
		v, ok := value.(map[string]any)
		return ok && reflect.DeepEqual(k, v)
	case []any:
		v, ok := value.([]any)
		return ok && reflect.DeepEqual(k, v)
	}
	return false
}

// notEquals implements NotEquals/NotEqual: the negation of [equals] for the
// key types equals supports, and false for any other key (e.g. nil), as
// upstream.
func notEquals(key, value any) bool {
	switch key.(type) {
	case bool, int, int64, float64, string, map[string]any, []any:
		return !equals(key, value)
	}
	return false
}

func intEquals(k int64, value any) bool {
	switch v := value.(type) {
	case int:
		return int64(v) == k
	case int64:
		return v == k
	case float64:
		return v == math.Trunc(v) && int64(v) == k
	case string:
		n, err := strconv.ParseInt(v, 10, 64)
		return err == nil && n == k
	}
	return false
}

func floatEquals(k float64, value any) bool {
	switch v := value.(type) {
	case int:
		return k == math.Trunc(k) && int(k) == v
	case int64:
		return k == math.Trunc(k) && int64(k) == v
	case float64:
		return v == k
	case string:
		f, err := strconv.ParseFloat(v, 64)
		return err == nil && f == k
	}
	return false
}

func stringEquals(k string, value any) bool {
	if kd, vd, ok := durationPair(k, value); ok {
		return kd.Seconds() == vd.Seconds()
	}
	if kq, err := resource.ParseQuantity(k); err == nil {
		if v, ok := value.(string); ok {
			vq, err := resource.ParseQuantity(v)
			return err == nil && kq.Equal(vq)
		}
	}
	v, ok := value.(string)
	return ok && wildcard.Match(v, k)
}
