// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package functions

import (
	"fmt"
	"math"
	"time"

	"gopkg.in/inf.v0"
	"k8s.io/apimachinery/pkg/api/resource"
)

// operand is one argument of add, subtract, multiply, divide or modulo: a
// number, or a string read as a resource.Quantity first and a
// time.Duration second (pkg/engine/jmespath/arithmetic.go).
type operand struct {
	kind byte // 's' scalar, 'q' quantity, 'd' duration
	f    float64
	q    resource.Quantity
	d    time.Duration
}

func parseOperand(fn string, args []any, i int) (operand, error) {
	if i < len(args) {
		switch v := args[i].(type) {
		case float64:
			return operand{kind: 's', f: v}, nil
		case string:
			if q, err := resource.ParseQuantity(v); err == nil {
				return operand{kind: 'q', q: q}, nil
			}
			if d, err := time.ParseDuration(v); err == nil {
				return operand{kind: 'd', d: d}, nil
			}
		}
	}
	return operand{}, errGeneric(fn, "invalid operand")
}

func parseOperands(fn string, args []any) (operand, operand, error) {
	a, err := parseOperand(fn, args, 0)
	if err != nil {
		return operand{}, operand{}, err
	}
	b, err := parseOperand(fn, args, 1)
	if err != nil {
		return operand{}, operand{}, err
	}
	return a, b, nil
}

func add(args []any) (any, error) { return addAs("add", args) }

func addAs(fn string, args []any) (any, error) {
	a, b, err := parseOperands(fn, args)
	if err != nil {
		return nil, err
	}
	switch {
	case a.kind == 'q' && b.kind == 'q':
		a.q.Add(b.q)
		return a.q.String(), nil
	case a.kind == 'd' && b.kind == 'd':
		return (a.d + b.d).String(), nil
	case a.kind == 's' && b.kind == 's':
		return a.f + b.f, nil
	}
	return nil, errTypeMismatch(fn)
}

func sum(args []any) (any, error) {
	list, ok := args[0].([]any)
	if !ok {
		return nil, errTypeMismatch("sum")
	}
	if len(list) == 0 {
		return nil, errGeneric("sum", "at least one element in the array is required")
	}
	result := list[0]
	for _, item := range list[1:] {
		var err error
		if result, err = addAs("sum", []any{result, item}); err != nil {
			return nil, err
		}
	}
	return result, nil
}

func subtract(args []any) (any, error) {
	a, b, err := parseOperands("subtract", args)
	if err != nil {
		return nil, err
	}
	switch {
	case a.kind == 'q' && b.kind == 'q':
		a.q.Sub(b.q)
		return a.q.String(), nil
	case a.kind == 'd' && b.kind == 'd':
		return (a.d - b.d).String(), nil
	case a.kind == 's' && b.kind == 's':
		return a.f - b.f, nil
	}
	return nil, errTypeMismatch("subtract")
}

func multiply(args []any) (any, error) {
	a, b, err := parseOperands("multiply", args)
	if err != nil {
		return nil, err
	}
	if a.kind == 's' && b.kind != 's' {
		a, b = b, a // scalar * x is x * scalar
	}
	if b.kind != 's' {
		return nil, errTypeMismatch("multiply")
	}
	switch a.kind {
	case 'q':
		factor, err := resource.ParseQuantity(fmt.Sprintf("%v", b.f))
		if err != nil {
			return nil, err
		}
		var prod inf.Dec
		prod.Mul(a.q.AsDec(), factor.AsDec())
		return resource.NewDecimalQuantity(prod, a.q.Format).String(), nil
	case 'd':
		return scaleDuration(a.d.Seconds() * b.f), nil
	}
	return a.f * b.f, nil
}

func divide(args []any) (any, error) {
	a, b, err := parseOperands("divide", args)
	if err != nil {
		return nil, err
	}
	switch {
	case a.kind == 'q' && b.kind == 'q':
		divisor := b.q.AsApproximateFloat64()
		if divisor == 0 {
			return nil, errZeroDivision("divide")
		}
		return a.q.AsApproximateFloat64() / divisor, nil
	case a.kind == 'q' && b.kind == 's':
		if b.f == 0 {
			return nil, errZeroDivision("divide")
		}
		divisor, err := resource.ParseQuantity(fmt.Sprintf("%v", b.f))
		if err != nil {
			return nil, err
		}
		var quo inf.Dec
		scale := inf.Scale(math.Max(float64(a.q.AsDec().Scale()), float64(divisor.AsDec().Scale())))
		quo.QuoRound(a.q.AsDec(), divisor.AsDec(), scale, inf.RoundDown)
		return resource.NewDecimalQuantity(quo, a.q.Format).String(), nil
	case a.kind == 'd' && b.kind == 'd':
		if b.d.Seconds() == 0 {
			return nil, errZeroDivision("divide")
		}
		return a.d.Seconds() / b.d.Seconds(), nil
	case a.kind == 'd' && b.kind == 's':
		if b.f == 0 {
			return nil, errZeroDivision("divide")
		}
		return scaleDuration(a.d.Seconds() / b.f), nil
	case a.kind == 's' && b.kind == 's':
		if b.f == 0 {
			return nil, errZeroDivision("divide")
		}
		return a.f / b.f, nil
	}
	return nil, errTypeMismatch("divide")
}

func modulo(args []any) (any, error) {
	a, b, err := parseOperands("modulo", args)
	if err != nil {
		return nil, err
	}
	switch {
	case a.kind == 'q' && b.kind == 'q':
		i1, i2, err := integers(a.q.ToDec().AsApproximateFloat64(), b.q.ToDec().AsApproximateFloat64())
		if err != nil {
			return nil, err
		}
		return resource.NewQuantity(i1%i2, a.q.Format).String(), nil
	case a.kind == 'd' && b.kind == 'd':
		if b.d == 0 {
			return nil, errZeroDivision("modulo")
		}
		return (a.d % b.d).String(), nil
	case a.kind == 's' && b.kind == 's':
		i1, i2, err := integers(a.f, b.f)
		if err != nil {
			return nil, err
		}
		return float64(i1 % i2), nil
	}
	return nil, errTypeMismatch("modulo")
}

// integers converts both modulo operands, which must be integral, the
// divisor non-zero.
func integers(f1, f2 float64) (int64, int64, error) {
	i1, ok1 := exactInt64(f1)
	i2, ok2 := exactInt64(f2)
	if !ok1 || !ok2 {
		return 0, 0, errNonIntModulo()
	}
	if i2 == 0 {
		return 0, 0, errZeroDivision("modulo")
	}
	return i1, i2, nil
}

func exactInt64(f float64) (int64, bool) {
	if math.IsNaN(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return 0, false
	}
	i := int64(f)
	return i, float64(i) == f
}

// scaleDuration turns seconds into a duration string the way upstream does
// (time.Duration(seconds * float64(time.Second))).
func scaleDuration(seconds float64) string {
	ns := seconds * float64(time.Second)
	if math.IsNaN(ns) || ns < math.MinInt64 || ns >= math.MaxInt64 {
		return time.Duration(math.MinInt64).String()
	}
	return time.Duration(ns).String()
}

func round(args []any) (any, error) {
	x, err := argNumber("round", args, 0)
	if err != nil {
		return nil, err
	}
	places, err := argNumber("round", args, 1)
	if err != nil {
		return nil, err
	}
	n, err := intNumber(places)
	if err != nil {
		return nil, errGeneric("round", "Non-integer argument(s) passed for round off")
	}
	if n < 0 {
		return nil, errNegativeRound
	}
	shift := math.Pow(10, float64(n))
	return math.Round(x*shift) / shift, nil
}
