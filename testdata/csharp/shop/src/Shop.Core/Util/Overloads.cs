using System;

namespace Shop.Util;

public interface IShape { }

public class Circle : IShape { }

public class Square : IShape { }

public interface INamed { void Name(string s); }

public class Named : INamed
{
    public void Name(object o) { }
    void INamed.Name(string s) { }
}

/// <summary>Overloads of one arity, chosen by the arguments' types.</summary>
public static class Overloads
{
    public static void Show(long n) { }
    public static void Show(double d) { }
    public static void Show(string s) { }
    public static void Show(IShape shape) { }
    public static void Show(object o) { }

    public static void Pick(Circle c) { }
    public static void Pick(IShape s) { }

    public static void Many(params int[] xs) { }
    public static void Many(string s) { }

    public static void Run(Action a) { }
    public static void Run(string s) { }

    public static void Gen<T>(T x) { }
    public static void Gen(string s) { }

    public static object Make() => new Circle();

    public static void Demo(int i, float f, Circle c, Square sq, object o)
    {
        Show(i);
        Show(f);
        Show(1L);
        Show("x");
        Show(c);
        Show((object)c);
        Show('c');
        Show(2.5m);
        Show(o);
        Show(null);
        Show(Make());
        var local = sq;
        Pick(c);
        Pick(local);
        Many(1, 2);
        Many("s");
        Run(() => { });
        Gen("s");
        new Named().Name("x");
    }
}
