//go:build !linux || !cgo

package memtrim

func Trim() {}
