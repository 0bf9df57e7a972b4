plugins {
    kotlin("jvm") version "2.0.0"
}

dependencies {
    testImplementation(kotlin("test"))
}
