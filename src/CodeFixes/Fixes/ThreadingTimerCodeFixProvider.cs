using System.Collections.Generic;
using System.Composition;
using System.Threading;
using CoarseTimers.Analyzers;
using CoarseTimers.CodeFixes.Shared;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

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
    private static readonly HashSet<string> s_timerMembers = new() { "Change", "Dispose", "DisposeAsync" };

    public ThreadingTimerCodeFixProvider()
        : base(DiagnosticIds.ThreadingTimer, "Use CoarseTimer", RuntimeNames.CoarseTimer)
    {
    }

    private protected override IReadOnlyList<DocumentEdit>? TryGetEdits(SyntaxNode node, SemanticModel model, CancellationToken cancellationToken)
    {
        if (node.FirstAncestorOrSelf<BaseObjectCreationExpressionSyntax>() is not { } creation || !IsTimerCreation(creation, model, cancellationToken))
        {
            return null;
        }

        var storage = StorageAnalysis.StorageOf(creation, model, cancellationToken);
        var storageType = storage switch
        {
            ILocalSymbol l => l.Type,
            IFieldSymbol f => f.Type,
            IPropertySymbol p => p.Type,
            _ => null,
        };

        if (storage is null || !IsTimer(storageType))
        {
            // Not stored as a Timer: fine where only IDisposable/IAsyncDisposable/ITimer is needed, or the value is discarded.
            var converted = model.GetTypeInfo(creation, cancellationToken).ConvertedType;
            var discarded = creation.Parent is ExpressionStatementSyntax;
            if (creation is ImplicitObjectCreationExpressionSyntax || !(discarded || IsInterfaceCoarseTimerImplements(converted)))
            {
                return null;
            }

            return new[] { RewriteCreation(creation, model) };
        }

        if (StorageAnalysis.Analyze(storage, model, cancellationToken) is not { } analysis || !analysis.UsedOnlyThrough(s_timerMembers, IsInterfaceCoarseTimerImplements, model, cancellationToken))
        {
            return null;
        }

        var edits = new List<DocumentEdit>();
        foreach (var value in analysis.AssignedValues)
        {
            if (value.IsKind(SyntaxKind.NullLiteralExpression) || value is ImplicitObjectCreationExpressionSyntax)
            {
                // Target-typed `new(...)` follows the declaration's new type.
                continue;
            }

            if (value is not ObjectCreationExpressionSyntax other || !IsTimerCreation(other, model, cancellationToken))
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

    private static bool IsTimerCreation(BaseObjectCreationExpressionSyntax creation, SemanticModel model, CancellationToken cancellationToken) =>
        model.GetSymbolInfo(creation, cancellationToken).Symbol is IMethodSymbol constructor && IsTimer(constructor.ContainingType);

    private static bool IsTimer(ITypeSymbol? type) =>
        type is INamedTypeSymbol { Name: "Timer", ContainingNamespace: { Name: "Threading", ContainingNamespace: { Name: "System", ContainingNamespace.IsGlobalNamespace: true } } };

    private static bool IsInterfaceCoarseTimerImplements(ITypeSymbol? type) =>
        type is INamedTypeSymbol { TypeKind: TypeKind.Interface, Name: "IDisposable" or "IAsyncDisposable" or "ITimer", ContainingNamespace.Name: "System" or "Threading" };

    private static DocumentEdit RewriteCreation(BaseObjectCreationExpressionSyntax creation, SemanticModel model) =>
        new(creation, current => ObjectCreationRewrite.WithType((BaseObjectCreationExpressionSyntax)current, RuntimeNames.Type(RuntimeNames.CoarseTimer, model, creation.SpanStart)));
}
