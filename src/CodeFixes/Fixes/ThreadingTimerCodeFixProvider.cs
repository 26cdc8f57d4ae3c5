using System.Collections.Generic;
using System.Composition;
using System.Linq;
using System.Threading;
using CoarseTimers.Analyzers;
using CoarseTimers.Analyzers.Internals;
using CoarseTimers.Analyzers.Rules;
using CoarseTimers.Analyzers.Shared;
using CoarseTimers.CodeFixes.Shared;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.CodeFixes.Fixes;

/// <summary>
/// CT0003: <c>new Timer(...)</c> to <c>new CoarseTimer(...)</c>. Where the timer is stored in a local, private field or
/// private property typed <c>System.Threading.Timer</c>, that declaration becomes <c>CoarseTimer</c> and every timer
/// stored there is rewritten. Not offered when the timer escapes to something that needs a <c>System.Threading.Timer</c>:
/// passed as an argument, returned, assigned elsewhere, type-tested, or stored where not every use is visible here.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(ThreadingTimerCodeFixProvider)), Shared]
public sealed class ThreadingTimerCodeFixProvider : CoarseTimersCodeFixProvider
{
    public ThreadingTimerCodeFixProvider()
        : base(DiagnosticIds.ThreadingTimer, "Use CoarseTimer", static symbols => symbols.CoarseTimer)
    {
    }

    private protected override IReadOnlyList<DocumentEdit>? TryGetEdits(SyntaxNode node, SemanticModel model, KnownSymbols symbols, FixTargets targets, CancellationToken cancellationToken)
    {
        if (SiteOperation<IObjectCreationOperation>(node, model, cancellationToken) is not { Syntax: BaseObjectCreationExpressionSyntax creation } operation ||
            !ThreadingTimerAnalyzer.Matches(operation, symbols) || HandsItselfToACallbackThatReadsIt(operation))
        {
            return null;
        }

        var storage = Storage.Of(operation);
        var storageType = Storage.TypeOf(storage);

        if (storage is null || !storageType.Is(symbols.Timer))
        {
            // Not stored as a Timer: safe where nothing can tell the types apart: a timer discarded, the resource of a
            // `using`, or kept in a variable of an interface CoarseTimer implements (IDisposable, ITimer) that is only
            // used through its members. Handed on, it could be tested for Timer (`d is Timer t` then
            // `t.Dispose(waitHandle)`), which a CoarseTimer fails.
            var unreachable = creation.Parent is ExpressionStatementSyntax or UsingStatementSyntax;
            if (creation is ImplicitObjectCreationExpressionSyntax || !(unreachable || IsKeptAsInterface(storage, storageType, symbols, model, cancellationToken)))
            {
                return null;
            }

            return new[] { RewriteCreation(creation, model) };
        }

        if (StorageAnalysis.Analyze(storage, model, cancellationToken) is not { } analysis ||
            !analysis.UsedOnlyThrough(member => CoarseTimerHasTheSame(member, symbols), static _ => false, symbols, model, cancellationToken))
        {
            return null;
        }

        var edits = new List<DocumentEdit>();
        foreach (var value in analysis.AssignedValues)
        {
            if (value.IsKind(SyntaxKind.NullLiteralExpression))
            {
                continue;
            }

            if (value is ImplicitObjectCreationExpressionSyntax)
            {
                // Target-typed `new(...)` follows the declaration's new type, so it must be a timer creation the rewrite
                // keeps safe: not `new(callback)` handing itself to a callback that reads it.
                if (model.GetOperation(value, cancellationToken) is not IObjectCreationOperation implicitCreation || HandsItselfToACallbackThatReadsIt(implicitCreation))
                {
                    return null;
                }

                continue;
            }

            if (value is not ObjectCreationExpressionSyntax other || !IsTimerCreation(other, model, symbols, cancellationToken))
            {
                return null;
            }

            edits.Add(RewriteCreation(other, model));
        }

        if (analysis.DeclaredType is { IsVar: false } declared)
        {
            edits.Add(DeclaredTypeRewrite.To(RuntimeNames.CoarseTimer, declared, model));
        }

        return edits;
    }

    private static bool IsKeptAsInterface(ISymbol? storage, ITypeSymbol? storageType, KnownSymbols symbols, SemanticModel model, CancellationToken cancellationToken) =>
        storage is not null && storageType is INamedTypeSymbol { TypeKind: TypeKind.Interface } face && symbols.CoarseTimer is { } coarse &&
        coarse.AllInterfaces.Contains(face, SymbolEqualityComparer.Default) &&
        StorageAnalysis.Analyze(storage, model, cancellationToken) is { } held && held.UsedOnlyThrough(static _ => true, static _ => false, symbols, model, cancellationToken);

    private static bool IsTimerCreation(ObjectCreationExpressionSyntax creation, SemanticModel model, KnownSymbols symbols, CancellationToken cancellationToken) =>
        model.GetOperation(creation, cancellationToken) is IObjectCreationOperation operation && ThreadingTimerAnalyzer.Matches(operation, symbols) &&
        !HandsItselfToACallbackThatReadsIt(operation);

    /// <summary>
    /// <c>new Timer(callback)</c> passes the timer itself as the callback's state; after the rewrite that state is a
    /// <c>CoarseTimer</c>, so a callback that reads it (<c>((Timer)s).Dispose()</c>) would fail. Only a lambda that never
    /// reads its parameter is safe; a method group may read it.
    /// </summary>
    private static bool HandsItselfToACallbackThatReadsIt(IObjectCreationOperation creation)
    {
        if (creation.Constructor is not { Parameters.Length: 1 } || creation.Arguments.Length != 1)
        {
            return false;
        }

        var callback = creation.Arguments[0].Value.WithoutConversions();
        if (callback is IDelegateCreationOperation delegateCreation)
        {
            callback = delegateCreation.Target;
        }

        if (callback is not IAnonymousFunctionOperation { Symbol.Parameters.Length: 1 } lambda)
        {
            return true;
        }

        var state = lambda.Symbol.Parameters[0];
        return lambda.Body.Descendants().Any(o => o is IParameterReferenceOperation reference && SymbolEqualityComparer.Default.Equals(reference.Parameter, state));
    }

    /// <summary>
    /// A method declared by <c>System.Threading.Timer</c> itself (not one inherited from <c>object</c>, such as
    /// <c>GetType</c>, whose answer would change) that <c>CoarseTimer</c> also declares, with the same parameter types
    /// and return type: a call through the retyped storage binds to that one.
    /// </summary>
    private static bool CoarseTimerHasTheSame(ISymbol member, KnownSymbols symbols)
    {
        if (member is not IMethodSymbol { IsStatic: false } method || !method.ContainingType.Is(symbols.Timer) || symbols.CoarseTimer is not { } coarse)
        {
            return false;
        }

        foreach (var candidate in coarse.GetMembers(method.Name))
        {
            if (candidate is IMethodSymbol { IsStatic: false, DeclaredAccessibility: Accessibility.Public } other &&
                other.Parameters.Length == method.Parameters.Length &&
                SymbolEqualityComparer.Default.Equals(other.ReturnType, method.ReturnType) &&
                other.Parameters.Zip(method.Parameters, static (a, b) => a.RefKind == b.RefKind && SymbolEqualityComparer.Default.Equals(a.Type, b.Type)).All(static same => same))
            {
                return true;
            }
        }

        return false;
    }

    private static DocumentEdit RewriteCreation(BaseObjectCreationExpressionSyntax creation, SemanticModel model) =>
        new(creation, current => ObjectCreationRewrite.WithType((BaseObjectCreationExpressionSyntax)current, RuntimeNames.Type(RuntimeNames.CoarseTimer, model, creation.SpanStart)));
}
