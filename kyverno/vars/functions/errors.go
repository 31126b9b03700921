// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package functions

import (
	"errors"
	"fmt"
	"math"
)

// Error texts follow pkg/engine/jmespath/error.go.

func errArgType(fn string, n int, typ string) error {
	return fmt.Errorf("JMESPath function '%s': argument #%d is not of type %s", fn, n, typ)
}

func errGeneric(fn, msg string) error {
	return fmt.Errorf("JMESPath function '%s': %s", fn, msg)
}

func errOutOfBounds(fn string, n, got int) error {
	return fmt.Errorf("JMESPath function '%s': %d argument is out of bounds (%d)", fn, n, got)
}

func errZeroDivision(fn string) error {
	return fmt.Errorf("JMESPath function '%s': Zero divisor passed", fn)
}

func errNonIntModulo() error {
	return errors.New("JMESPath function 'modulo': Non-integer argument(s) passed for modulo")
}

func errTypeMismatch(fn string) error {
	return fmt.Errorf("JMESPath function '%s': Types mismatch", fn)
}

// errNegativeRound is what upstream prints for a negative number of decimal
// places: it formats argOutOfBoundsError without its two arguments.
var errNegativeRound = errors.New("JMESPath function 'round': %!d(MISSING) argument is out of bounds (%!d(MISSING))")

// argString returns argument i as a string (validateArg with reflect.String).
func argString(fn string, args []any, i int) (string, error) {
	if i >= len(args) {
		return "", errOutOfBounds(fn, i+1, len(args))
	}
	s, ok := args[i].(string)
	if !ok {
		return "", errArgType(fn, i+1, "string")
	}
	return s, nil
}

// argNumber returns argument i as a float64 (validateArg with reflect.Float64).
func argNumber(fn string, args []any, i int) (float64, error) {
	if i >= len(args) {
		return 0, errOutOfBounds(fn, i+1, len(args))
	}
	f, ok := args[i].(float64)
	if !ok {
		return 0, errArgType(fn, i+1, "float64")
	}
	return f, nil
}

// intNumber converts an integral float64 to an int (utils.go intNumber).
func intNumber(f float64) (int, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) || math.Trunc(f) != f {
		return 0, fmt.Errorf("expected an integer number but got: %g", f)
	}
	if f < math.MinInt64 || f >= math.MaxInt64 {
		return 0, fmt.Errorf("number is outside the range of integer numbers: %g", f)
	}
	return int(f), nil
}

// toInt converts a float64 the way Go's int(f) does on amd64: values that do
// not fit (and NaN) become math.MinInt64.
func toInt(f float64) int {
	if math.IsNaN(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return math.MinInt64
	}
	return int(f)
}
