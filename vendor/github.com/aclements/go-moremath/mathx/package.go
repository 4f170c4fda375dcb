// Copyright 2015 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package mathx implements special functions not provided by the
// standard math package.
package mathx // import "github.com/aclements/go-moremath/mathx"

import "math"

var nan = math.NaN()
