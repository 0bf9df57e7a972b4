package platform

func pageSize() int { return 65536 }
