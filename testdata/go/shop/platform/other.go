//go:build plan9

package platform

func pageSize() int { return 1 }
