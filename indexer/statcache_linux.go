package indexer

import "syscall"

// ctime is st's change time, in Unix nanoseconds.
func ctime(st *syscall.Stat_t) int64 { return int64(st.Ctim.Sec)*1e9 + int64(st.Ctim.Nsec) }
