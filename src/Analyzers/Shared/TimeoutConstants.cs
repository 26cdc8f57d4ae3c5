using System.Collections.Immutable;
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
        operation = Unwrap(operation);
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
            case IFieldReferenceOperation { Field.Name: "Zero" or "InfiniteTimeSpan" } field when IsTimeSpan(field.Field.ContainingType, symbols):
                return field.Field.Name == "Zero" ? 0 : -1;
            case IInvocationOperation invocation when IsTimeSpan(invocation.TargetMethod.ContainingType, symbols) && invocation.Arguments.Length >= 1:
                var scale = invocation.TargetMethod.Name switch
                {
                    "FromMilliseconds" => 1d,
                    "FromSeconds" => 1000d,
                    "FromMinutes" => 60_000d,
                    "FromHours" => 3_600_000d,
                    "FromDays" => 86_400_000d,
                    _ => (double?)null,
                };
                if (scale is null)
                {
                    return null;
                }

                // .NET 9 adds integer overloads with several parts; only the single-value form is read.
                if (invocation.Arguments.Length != 1 && invocation.Arguments[1].ArgumentKind != ArgumentKind.DefaultValue)
                {
                    return null;
                }

                var value = Unwrap(invocation.Arguments[0].Value)?.ConstantValue;
                return value is { HasValue: true } ? ToDouble(value.Value.Value) * scale : null;
            case IObjectCreationOperation creation when IsTimeSpan(creation.Type, symbols):
                return FromConstructor(creation);
            default:
                return null;
        }
    }

    /// <summary>The argument bound to the parameter at <paramref name="ordinal"/> (arguments are in evaluation order, named ones too).</summary>
    public static IOperation? Argument(ImmutableArray<IArgumentOperation> arguments, int ordinal)
    {
        foreach (var argument in arguments)
        {
            if (argument.Parameter?.Ordinal == ordinal)
            {
                return argument.Value;
            }
        }

        return null;
    }

    private static double? FromConstructor(IObjectCreationOperation creation)
    {
        var values = new double[creation.Arguments.Length];
        for (var i = 0; i < values.Length; i++)
        {
            var constant = Unwrap(creation.Arguments[i].Value)?.ConstantValue;
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

    private static IOperation? Unwrap(IOperation? operation)
    {
        while (operation is IConversionOperation conversion)
        {
            operation = conversion.Operand;
        }

        return operation;
    }

    private static bool IsTimeSpan(ITypeSymbol? type, KnownSymbols symbols) => SymbolEqualityComparer.Default.Equals(type, symbols.TimeSpan);

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
