using CoarseTimers.Analyzers.Internals;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.Analyzers.Shared;

/// <summary>Reads a timeout argument as a compile-time constant in milliseconds, when it is one.</summary>
internal static class TimeoutConstants
{
    /// <summary>
    /// The constant value of <paramref name="operation"/> in milliseconds: an integer constant, <c>TimeSpan.Zero</c>,
    /// <c>TimeSpan.FromMilliseconds|FromSeconds|FromMinutes|FromHours|FromDays(constant)</c>, or
    /// <c>new TimeSpan(constants)</c>. Null when it is not a constant.
    /// </summary>
    public static double? Milliseconds(IOperation? operation, KnownSymbols symbols)
    {
        operation = operation.WithoutConversions();
        if (operation is null)
        {
            return null;
        }

        if (operation.ConstantValue.HasValue)
        {
            return ToDouble(operation.ConstantValue.Value);
        }

        switch (operation)
        {
            case IFieldReferenceOperation { Field.Name: "Zero" } field when field.Field.ContainingType.Is(symbols.TimeSpan):
                return 0;
            case IInvocationOperation when FactoryValue(operation, symbols, out var scale) is { } factoryValue:
                var value = factoryValue.ConstantValue;
                return value.HasValue ? ToDouble(value.Value) * scale : null;
            case IObjectCreationOperation creation when creation.Type.Is(symbols.TimeSpan):
                return FromConstructor(creation);
            default:
                return null;
        }
    }

    /// <summary>
    /// The value <c>TimeSpan.FromMilliseconds|FromSeconds|FromMinutes|FromHours|FromDays(value)</c> converts (conversions
    /// skipped), with the <paramref name="scale"/> from its unit to milliseconds; null for anything else. .NET 9 adds
    /// integer overloads with several parts; only the single-value form is read.
    /// </summary>
    public static IOperation? FactoryValue(IOperation? operation, KnownSymbols symbols, out double scale)
    {
        scale = 0;
        if (operation.WithoutConversions() is not IInvocationOperation { Arguments.Length: >= 1 } invocation || !invocation.TargetMethod.ContainingType.Is(symbols.TimeSpan) ||
            (invocation.Arguments.Length != 1 && invocation.Arguments[1].ArgumentKind != ArgumentKind.DefaultValue))
        {
            return null;
        }

        scale = invocation.TargetMethod.Name switch
        {
            "FromMilliseconds" => 1d,
            "FromSeconds" => 1000d,
            "FromMinutes" => 60_000d,
            "FromHours" => 3_600_000d,
            "FromDays" => 86_400_000d,
            _ => 0d,
        };
        return scale == 0 ? null : invocation.Arguments[0].Value.WithoutConversions();
    }

    private static double? FromConstructor(IObjectCreationOperation creation)
    {
        var values = new double[creation.Arguments.Length];
        for (var i = 0; i < values.Length; i++)
        {
            var constant = creation.Arguments[i].Value.WithoutConversions()?.ConstantValue;
            if (constant is not { HasValue: true } || ToDouble(constant.Value.Value) is not double d)
            {
                return null;
            }

            values[i] = d;
        }

        return values.Length switch
        {
            1 => values[0] / 10_000d,
            3 => ((values[0] * 60 + values[1]) * 60 + values[2]) * 1000,
            4 => (((values[0] * 24 + values[1]) * 60 + values[2]) * 60 + values[3]) * 1000,
            5 => ((((values[0] * 24 + values[1]) * 60 + values[2]) * 60 + values[3]) * 1000) + values[4],
            _ => null,
        };
    }

    private static double? ToDouble(object? value) => value switch
    {
        int i => i,
        long l => l,
        uint u => u,
        double d => d,
        float f => f,
        short s => s,
        _ => null,
    };
}
