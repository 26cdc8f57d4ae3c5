using System.Collections.Generic;
using System.Composition;
using System.Linq;
using System.Threading;
using CoarseTimers.Analyzers;
using CoarseTimers.CodeFixes.Shared;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace CoarseTimers.CodeFixes.Fixes;

/// <summary>
/// CT0002: <c>new CancellationTokenSource(t)</c> to <c>new CoarseCancellationTokenSource(t)</c>; for <c>cts.CancelAfter(t)</c>,
/// the creation of <c>cts</c> (a <c>new</c> or <c>CreateLinkedTokenSource</c>) becomes the coarse source's and an explicit
/// <c>CancellationTokenSource</c> declaration becomes <c>CoarseCancellationTokenSource</c>, so that <c>CancelAfter</c> binds
/// to the coarse one. Not offered when a value the rewrite cannot cover is stored in the variable, when it is passed by
/// <c>ref</c>/<c>out</c>, or when the source is not created in this document (a parameter, a field set elsewhere).
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(TimeoutCancellationTokenSourceCodeFixProvider)), Shared]
public sealed class TimeoutCancellationTokenSourceCodeFixProvider : CoarseTimersCodeFixProvider
{
    public TimeoutCancellationTokenSourceCodeFixProvider()
        : base(DiagnosticIds.TimeoutCancellationTokenSource, "Use CoarseCancellationTokenSource", RuntimeNames.CoarseCancellationTokenSource)
    {
    }

    private protected override IReadOnlyList<DocumentEdit>? TryGetEdits(SyntaxNode node, SemanticModel model, CancellationToken cancellationToken)
    {
        var site = node.FirstAncestorOrSelf<ExpressionSyntax>(e => e is BaseObjectCreationExpressionSyntax or InvocationExpressionSyntax);
        return site switch
        {
            BaseObjectCreationExpressionSyntax creation => FixCreation(creation, model, cancellationToken),
            InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "CancelAfter" } access } =>
                FixCancelAfter(access.Expression, model, cancellationToken),
            _ => null,
        };
    }

    private static IReadOnlyList<DocumentEdit>? FixCreation(BaseObjectCreationExpressionSyntax creation, SemanticModel model, CancellationToken cancellationToken)
    {
        if (!IsRewritableCreation(creation, model, cancellationToken))
        {
            return null;
        }

        // A `var` local takes the new type: everything stored in it must become a coarse source too.
        if (StorageAnalysis.StorageOf(creation, model, cancellationToken) is ILocalSymbol local &&
            StorageAnalysis.Analyze(local, model, cancellationToken) is { DeclaredType.IsVar: true } storage)
        {
            return RewriteStorage(storage, model, cancellationToken, changeDeclaredType: false);
        }

        return new[] { RewriteCreation(creation, model) };
    }

    private static IReadOnlyList<DocumentEdit>? FixCancelAfter(ExpressionSyntax receiver, SemanticModel model, CancellationToken cancellationToken)
    {
        var symbol = model.GetSymbolInfo(receiver, cancellationToken).Symbol;
        if (symbol is not (ILocalSymbol or IFieldSymbol or IPropertySymbol) || StorageAnalysis.Analyze(symbol, model, cancellationToken) is not { } storage)
        {
            return null;
        }

        return RewriteStorage(storage, model, cancellationToken, changeDeclaredType: true);
    }

    private static IReadOnlyList<DocumentEdit>? RewriteStorage(StorageAnalysis storage, SemanticModel model, CancellationToken cancellationToken, bool changeDeclaredType)
    {
        if (storage.References.Any(BreaksWithNarrowerType) || !storage.AssignedValues.Any(v => !v.IsKind(SyntaxKind.NullLiteralExpression)))
        {
            return null;
        }

        var edits = new List<DocumentEdit>();
        foreach (var value in storage.AssignedValues)
        {
            // Null, or a value already coarse (an earlier fix of another site on this variable): nothing to rewrite.
            if (value.IsKind(SyntaxKind.NullLiteralExpression) || IsCoarseSource(value, model, cancellationToken))
            {
                continue;
            }

            if (value is BaseObjectCreationExpressionSyntax creation && IsRewritableCreation(creation, model, cancellationToken))
            {
                edits.Add(RewriteCreation(creation, model));
            }
            else if (value is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "CreateLinkedTokenSource" } } linked &&
                     IsRewritableLink(linked, model, cancellationToken))
            {
                edits.Add(new DocumentEdit(((MemberAccessExpressionSyntax)linked.Expression).Expression,
                    current => RuntimeNames.Type(RuntimeNames.CoarseCancellationTokenSource, model, linked.SpanStart).WithTriviaFrom(current)));
            }
            else
            {
                return null;
            }
        }

        if (changeDeclaredType && storage.DeclaredType is { IsVar: false } declared)
        {
            edits.Add(DeclaredTypeRewrite.To(RuntimeNames.CoarseCancellationTokenSource, declared, model));
        }

        return edits;
    }

    /// <summary>
    /// A use that stops compiling once the variable's type is the derived coarse source: passed by reference, written
    /// by a deconstruction, or copied into a <c>var</c> that would take the narrower type and later reject a plain source.
    /// </summary>
    private static bool BreaksWithNarrowerType(IdentifierNameSyntax reference) => reference.Parent switch
    {
        ArgumentSyntax argument when !argument.RefKindKeyword.IsKind(SyntaxKind.None) => true,
        ArgumentSyntax { Parent: TupleExpressionSyntax } => true,
        EqualsValueClauseSyntax { Parent: VariableDeclaratorSyntax { Parent: VariableDeclarationSyntax { Type.IsVar: true } } } => true,
        _ => false,
    };

    private static bool IsCoarseSource(ExpressionSyntax value, SemanticModel model, CancellationToken cancellationToken) =>
        SymbolEqualityComparer.Default.Equals(
            model.GetTypeInfo(value, cancellationToken).Type,
            model.Compilation.GetTypeByMetadataName(RuntimeNames.Namespace + "." + RuntimeNames.CoarseCancellationTokenSource));

    /// <summary>
    /// <c>CancellationTokenSource.CreateLinkedTokenSource</c> with an overload the coarse source also declares (tokens
    /// one by one or as an array); a newer overload (a span) would bind back to the base method on the coarse type.
    /// </summary>
    private static bool IsRewritableLink(InvocationExpressionSyntax linked, SemanticModel model, CancellationToken cancellationToken) =>
        model.GetSymbolInfo(linked, cancellationToken).Symbol is IMethodSymbol { ContainingType: { Name: "CancellationTokenSource", ContainingNamespace.Name: "Threading" } } method &&
        method.Parameters.All(p => IsCancellationToken(p.Type) || p.Type is IArrayTypeSymbol { Rank: 1 } array && IsCancellationToken(array.ElementType));

    private static bool IsCancellationToken(ITypeSymbol type) =>
        type is { Name: "CancellationToken", ContainingNamespace: { Name: "Threading", ContainingNamespace.Name: "System" } };

    /// <summary>A creation of exactly CancellationTokenSource with a constructor the coarse source also has.</summary>
    private static bool IsRewritableCreation(BaseObjectCreationExpressionSyntax creation, SemanticModel model, CancellationToken cancellationToken) =>
        model.GetSymbolInfo(creation, cancellationToken).Symbol is IMethodSymbol { ContainingType: { Name: "CancellationTokenSource", ContainingNamespace.Name: "Threading" } } constructor &&
        constructor.Parameters.Length <= 1 &&
        constructor.Parameters.All(p => p.Type.SpecialType == SpecialType.System_Int32 || p.Type.Name == "TimeSpan");

    private static DocumentEdit RewriteCreation(BaseObjectCreationExpressionSyntax creation, SemanticModel model) =>
        new(creation, current => ObjectCreationRewrite.WithType((BaseObjectCreationExpressionSyntax)current, RuntimeNames.Type(RuntimeNames.CoarseCancellationTokenSource, model, creation.SpanStart)));
}
