package com.example.shop.legacy;

/** Half-written: the parser recovers around the error. */
public class Broken {
    void before() {
    }

    void unfinished( {
        before();
    }

    static class StillFound {
        void after() {
        }
    }
}
