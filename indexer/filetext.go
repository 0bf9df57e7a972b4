package indexer

// Text returns the text of f at s.
func (f *File[K]) Text(s Span) string { return f.Str[s.Start:s.End] }
