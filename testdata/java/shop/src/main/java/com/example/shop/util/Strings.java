package com.example.shop.util;

/** String helpers. */
public final class Strings {
    private Strings() {
    }

    /** Pads s with blanks to width. */
    public static String pad(String s, int width) {
        return pad(s, width, ' ');
    }

    public static String pad(String s, int width, char fill) {
        StringBuilder b = new StringBuilder(s);
        while (b.length() < width) {
            b.append(fill);
        }
        return b.toString();
    }

    /** Joins parts with a separator. */
    public static String join(String sep, String... parts) {
        return String.join(sep, parts);
    }
}
