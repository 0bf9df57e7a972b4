using static System.Math;
using Fmt = System.Globalization.CultureInfo;

namespace Shop.Util;

public static class Money
{
    public static decimal Round(decimal value) => Math.Round(value, 2);

    public static string Format(decimal value) => value.ToString("C", Fmt.InvariantCulture);

    /// <summary>Extension: formats with a currency code.</summary>
    public static string WithCurrency(this decimal value, string code = "EUR")
    {
        return Format(value) + " " + code;
    }

    public static decimal Clamp(decimal value) => Max(0m, value);
}
