package platform

func pageSize() int { return 4096 }

// PageSize reports the page size.
func PageSize() int { return pageSize() }
