using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.Analyzers.Internals;

/// <summary>
/// A BCL call the compiler could not bind only because an argument's type is unresolved (a missing reference, a
/// package not yet restored: <c>new CancellationTokenSource(_options.QueryTimeout)</c> when the options type lives in
/// another assembly). Overload resolution then fails between the timeout overloads (<c>int</c> or <c>TimeSpan</c>) and
/// the call is an <see cref="IInvalidOperation"/> whose candidates are all that BCL member. The analyzers judge such a
/// call as they would the bound one; the code fixes offer nothing on it (the code does not compile).
/// </summary>
internal static class UnresolvedCall
{
    /// <summary>
    /// <paramref name="operation"/> is a call whose overload resolution failed and whose every candidate is a
    /// constructor of <paramref name="type"/> (when <paramref name="methodName"/> is null) or its method of that name.
    /// </summary>
    public static bool Calls(IInvalidOperation operation, INamedTypeSymbol? type, string? methodName, CancellationToken cancellationToken = default)
    {
        if (type is null || operation.SemanticModel is not { } model || operation.Syntax is not (BaseObjectCreationExpressionSyntax or InvocationExpressionSyntax))
        {
            return false;
        }

        var info = model.GetSymbolInfo(operation.Syntax, cancellationToken);
        if (info.Symbol is not null || info.CandidateReason != CandidateReason.OverloadResolutionFailure || info.CandidateSymbols.IsEmpty)
        {
            return false;
        }

        foreach (var candidate in info.CandidateSymbols)
        {
            if (candidate is not IMethodSymbol method || !SymbolEqualityComparer.Default.Equals(method.ContainingType?.OriginalDefinition, type) ||
                (methodName is null ? method.MethodKind != MethodKind.Constructor : method.Name != methodName))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>The syntax arguments of the call, in source order.</summary>
    public static SeparatedSyntaxList<ArgumentSyntax> Arguments(IOperation operation) => operation.Syntax switch
    {
        BaseObjectCreationExpressionSyntax { ArgumentList: { } list } => list.Arguments,
        InvocationExpressionSyntax invocation => invocation.ArgumentList.Arguments,
        _ => default,
    };

    /// <summary>
    /// The operation of the argument at <paramref name="index"/> in source order (a positional call: the unresolved
    /// calls the analyzers read have no named arguments), or null.
    /// </summary>
    public static IOperation? Argument(IInvalidOperation operation, int index)
    {
        var arguments = Arguments(operation);
        if (index >= arguments.Count || arguments[index].NameColon is not null)
        {
            return null;
        }

        var expression = arguments[index].Expression;
        foreach (var child in operation.ChildOperations)
        {
            if (child.Syntax == expression)
            {
                return child;
            }
        }

        return null;
    }

    /// <summary>The receiver of an unresolved method call (<c>source</c> in <c>source.CancelAfter(t)</c>), or null.</summary>
    public static IOperation? Receiver(IInvalidOperation operation, CancellationToken cancellationToken = default) =>
        operation.Syntax is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax access } && operation.SemanticModel is { } model
            ? model.GetOperation(access.Expression, cancellationToken)
            : null;

    /// <summary>
    /// <paramref name="receiver"/> reads a local declared with <c>var</c> that has no type only because its initializer's
    /// natural type is unresolved, while every branch of that initializer (through <c>?:</c> and <c>??</c>) is a
    /// <paramref name="type"/>, unresolved calls included (their candidates all return it):
    /// <c>var linked = job.Token != null ? CreateLinkedTokenSource(ct, job.Token.Value) : CreateLinkedTokenSource(ct);</c>
    /// with the job's type in a missing assembly.
    /// </summary>
    public static bool IsLocalOfType(IOperation? receiver, INamedTypeSymbol? type, CancellationToken cancellationToken)
    {
        if (type is null || receiver.WithoutConversions() is not ILocalReferenceOperation { Local: { Type.TypeKind: TypeKind.Error } local } reference ||
            reference.SemanticModel is not { } model)
        {
            return false;
        }

        foreach (var declaration in local.DeclaringSyntaxReferences)
        {
            if (declaration.GetSyntax(cancellationToken) is VariableDeclaratorSyntax { Initializer.Value: { } value } &&
                model.GetOperation(value, cancellationToken) is { } initializer)
            {
                return EveryBranchIs(initializer, type);
            }
        }

        return false;
    }

    private static bool EveryBranchIs(IOperation? value, INamedTypeSymbol type) => value.WithoutConversions() switch
    {
        IConditionalOperation conditional => conditional.WhenFalse is not null && EveryBranchIs(conditional.WhenTrue, type) && EveryBranchIs(conditional.WhenFalse, type),
        ICoalesceOperation coalesce => EveryBranchIs(coalesce.Value, type) && EveryBranchIs(coalesce.WhenNull, type),
        { Type: { } valueType } => SymbolEqualityComparer.Default.Equals(valueType.OriginalDefinition, type),
        _ => false,
    };
}
