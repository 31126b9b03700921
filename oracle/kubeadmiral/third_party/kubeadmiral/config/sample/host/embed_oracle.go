// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

// Package host is not part of KubeAdmiral: apply-overrides' oracle added this
// file next to the extracted config/sample/host/01-ftc.yaml so that the oracle
// can read KubeAdmiral's default FederatedTypeConfigs as shipped.
package host

import _ "embed"

// DefaultFTCs is config/sample/host/01-ftc.yaml at KubeAdmiral 19de01c.
//
//go:embed 01-ftc.yaml
var DefaultFTCs []byte
