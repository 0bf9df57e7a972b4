package main

func broken( {
	helper()
}

func helper() {}
