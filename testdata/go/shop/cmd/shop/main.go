package main

import (
	"example.com/shop/platform"
	"example.com/shop/server"
	"example.com/shop/store"
	"os"
)

func main() {
	srv := server.New(store.NewMemStore())
	price := srv.Lookup("apple")
	if price > platform.PageSize() {
		os.Exit(1)
	}
	unknown().Do()
}
