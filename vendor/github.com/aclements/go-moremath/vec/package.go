// Copyright 2015 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package vec provides functions for float64 vectors.
package vec // import "github.com/aclements/go-moremath/vec"
