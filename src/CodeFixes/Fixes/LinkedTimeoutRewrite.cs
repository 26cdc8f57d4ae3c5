using System.Collections.Generic;
using System.Linq;
using System.Threading;
using CoarseTimers.Analyzers.Internals;
using CoarseTimers.Analyzers.Shared;
using CoarseTimers.CodeFixes.Shared;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.CodeFixes.Fixes;

/// <summary>
/// CT0002's rewrite of <c>var cts = CancellationTokenSource.CreateLinkedTokenSource(token);</c> followed at once by
/// <c>cts.CancelAfter(t);</c> into <c>var cts = CoarseTimeout.CreateLinkedTokenSource(token, t);</c>: a plain linked
/// source whose timeout is a registration on a shared timeout token, not a timer. Offered only for a local armed once,
/// in the statement right after its creation, and never re-armed or reset (<c>CancelAfter</c>, <c>TryReset</c>)
/// nor handed anywhere that could do so; the source's other members (token, Cancel, Dispose) behave as before.
/// </summary>
internal static class LinkedTimeoutRewrite
{
    public static IReadOnlyList<DocumentEdit>? TryCreate(IInvocationOperation cancelAfter, SemanticModel model, KnownSymbols symbols, CancellationToken cancellationToken)
    {
        if (symbols.CoarseTimeout is null ||
            cancelAfter is not { Instance: ILocalReferenceOperation { Local: var local }, Parent: IExpressionStatementOperation { Syntax: ExpressionStatementSyntax armStatement } } ||
            cancelAfter.Syntax is not InvocationExpressionSyntax { ArgumentList.Arguments: { Count: 1 } arms } ||
            local.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax(cancellationToken) is not VariableDeclaratorSyntax { Parent: VariableDeclarationSyntax { Variables.Count: 1 } declaration, Initializer.Value: InvocationExpressionSyntax creation } ||
            creation.ArgumentList.Arguments.Count != 1 ||
            !model.GetTypeInfo(creation.ArgumentList.Arguments[0].Expression, cancellationToken).Type.Is(symbols.CancellationToken) ||
            model.GetOperation(creation, cancellationToken) is not IInvocationOperation { TargetMethod: var link, Arguments.Length: 1 } ||
            !link.IsMethodOf(symbols.CancellationTokenSource, "CreateLinkedTokenSource") || !TakesOneToken(link.Parameters[0], symbols) ||
            !IsRightAfter(declaration, armStatement) ||
            StorageAnalysis.Analyze(local, model, cancellationToken) is not { AssignedValues.Count: 1 } storage)
        {
            return null;
        }

        // The delay must not read the source (it is evaluated before the source exists now), and no other use may re-arm
        // or reset it, or let it go where something could.
        var delay = arms[0];
        var armReceiver = ((MemberAccessExpressionSyntax)((InvocationExpressionSyntax)cancelAfter.Syntax).Expression).Expression;
        var others = storage.WithoutReference(armReceiver);
        if (storage.References.Any(r => delay.Span.Contains(r.Span)) || MayHoldAnotherSite(delay) ||
            !others.UsedOnlyThrough(member => !IsRearm(member, symbols), static _ => false, symbols, model, cancellationToken))
        {
            return null;
        }

        var position = creation.SpanStart;
        return new[]
        {
            new DocumentEdit(creation, current =>
            {
                var invocation = (InvocationExpressionSyntax)current;
                return invocation
                    .WithExpression(RuntimeNames.StaticMember(RuntimeNames.CoarseTimeout, "CreateLinkedTokenSource", model, position).WithTriviaFrom(invocation.Expression))
                    .WithArgumentList(invocation.ArgumentList.AddArguments(delay.WithoutTrivia()));
            }),
            DocumentEdit.Remove(armStatement),
        };
    }

    /// <summary>
    /// The delay moves into the creation as it was written, so it must not hold a site another fix edits (a lambda, a
    /// <c>new</c>, a <c>Delay</c> or <c>SpinUntil</c> call): that edit would be lost with the removed statement.
    /// </summary>
    private static bool MayHoldAnotherSite(ArgumentSyntax delay) =>
        delay.DescendantNodesAndSelf().Any(node => node is AnonymousFunctionExpressionSyntax or BaseObjectCreationExpressionSyntax ||
            node is InvocationExpressionSyntax invocation && ColdContext.RightmostName(invocation.Expression) is "Delay" or "SpinUntil");

    /// <summary>
    /// <c>CreateLinkedTokenSource(token)</c>: the one-token overload, or, where a target has none (netstandard2.0, .NET
    /// Framework), the <c>params</c> one given one token. Both read as the same rewrite, so every target of a
    /// multi-targeted project makes the same edit (two different ones would not merge).
    /// </summary>
    private static bool TakesOneToken(IParameterSymbol parameter, KnownSymbols symbols) =>
        parameter.Type.Is(symbols.CancellationToken) ||
        parameter is { IsParams: true, Type: IArrayTypeSymbol { ElementType: var element } } && element.Is(symbols.CancellationToken);

    private static bool IsRearm(ISymbol member, KnownSymbols symbols) =>
        member is IMethodSymbol method && (method.IsMethodOf(symbols.CancellationTokenSource, "CancelAfter") || method.IsMethodOf(symbols.CancellationTokenSource, "TryReset"));

    /// <summary>The arming statement is the first one after the declaration, in the same block (or first in a <c>using</c> block).</summary>
    private static bool IsRightAfter(VariableDeclarationSyntax declaration, ExpressionStatementSyntax arm)
    {
        switch (declaration.Parent)
        {
            case LocalDeclarationStatementSyntax { Parent: BlockSyntax block } statement:
                var index = block.Statements.IndexOf(statement);
                return index >= 0 && index + 1 < block.Statements.Count && block.Statements[index + 1] == arm;
            case UsingStatementSyntax { Statement: BlockSyntax body }:
                return body.Statements.Count > 0 && body.Statements[0] == arm;
            default:
                return false;
        }
    }
}
