name := "shop"
scalaVersion := "3.3.1"
