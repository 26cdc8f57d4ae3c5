using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.Analyzers.Internals;

/// <summary>Walks over the implicit wrappers the compiler puts around values (conversions, delegate creations).</summary>
internal static class OperationExtensions
{
    /// <summary>The outermost operation above <paramref name="operation"/>: its member's body, where every local is declared and used.</summary>
    public static IOperation Root(this IOperation operation)
    {
        while (operation.Parent is not null)
        {
            operation = operation.Parent;
        }

        return operation;
    }

    /// <summary>
    /// What a call's instance stands for: for <c>source?.CancelAfter(t)</c>, whose instance is the conditional access's
    /// placeholder, the receiver the access tests (<c>source</c>); otherwise the instance itself, conversions skipped.
    /// </summary>
    public static IOperation? ThroughConditionalAccess(this IOperation? instance)
    {
        instance = instance.WithoutConversions();
        if (instance is IConditionalAccessInstanceOperation)
        {
            for (var parent = instance.Parent; parent is not null; parent = parent.Parent)
            {
                if (parent is IConditionalAccessOperation access)
                {
                    return access.Operation.WithoutConversions();
                }
            }
        }

        return instance;
    }

    /// <summary>The value under any conversions: <c>(object)(long)5</c> is the constant <c>5</c>.</summary>
    public static IOperation? WithoutConversions(this IOperation? operation)
    {
        while (operation is IConversionOperation conversion)
        {
            operation = conversion.Operand;
        }

        return operation;
    }

    /// <summary>The first ancestor that is not a conversion: where the value of <paramref name="operation"/> goes.</summary>
    public static IOperation? ConsumerSkippingConversions(this IOperation operation)
    {
        var parent = operation.Parent;
        while (parent is IConversionOperation)
        {
            parent = parent.Parent;
        }

        return parent;
    }

    /// <summary>
    /// Where a lambda or method group goes: its first ancestor that is neither a delegate creation nor a conversion
    /// (for a callback argument, the <see cref="IArgumentOperation"/>).
    /// </summary>
    public static IOperation? ConsumerSkippingDelegateCreation(this IOperation operation)
    {
        var parent = operation.Parent;
        while (parent is IDelegateCreationOperation or IConversionOperation)
        {
            parent = parent.Parent;
        }

        return parent;
    }

    /// <summary>The arguments of an invocation or an object creation; empty for any other operation.</summary>
    public static ImmutableArray<IArgumentOperation> CallArguments(this IOperation operation) => operation switch
    {
        IInvocationOperation invocation => invocation.Arguments,
        IObjectCreationOperation creation => creation.Arguments,
        _ => ImmutableArray<IArgumentOperation>.Empty,
    };

    /// <summary>The argument bound to the parameter at <paramref name="ordinal"/> (arguments are in evaluation order, named ones too).</summary>
    public static IOperation? ArgumentFor(this ImmutableArray<IArgumentOperation> arguments, int ordinal)
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
}
