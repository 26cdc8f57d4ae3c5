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
        : base(DiagnosticIds.TimeoutCancellationTokenSource, "Use CoarseCancellationTokenSource", static symbols => symbols.CoarseCancellationTokenSource)
    {
    }

    private protected override IReadOnlyList<DocumentEdit>? TryGetEdits(SyntaxNode node, SemanticModel model, KnownSymbols symbols, CancellationToken cancellationToken)
    {
        var site = new Site(model, symbols, cancellationToken);
        if (SiteOperation<IObjectCreationOperation>(node, model, cancellationToken) is { } creation && TimeoutCancellationTokenSourceAnalyzer.IsTimeoutCreation(creation, symbols))
        {
            return site.FixCreation(creation);
        }

        if (SiteOperation<IInvocationOperation>(node, model, cancellationToken) is { Instance: { } receiver } cancelAfter && TimeoutCancellationTokenSourceAnalyzer.IsCancelAfter(cancelAfter, symbols))
        {
            return site.FixCancelAfter(receiver);
        }

        return null;
    }

    /// <summary>One fix's view of the document: its semantic model and the compilation's symbols.</summary>
    private readonly struct Site
    {
        private readonly SemanticModel _model;
        private readonly KnownSymbols _symbols;
        private readonly CancellationToken _cancellationToken;

        public Site(SemanticModel model, KnownSymbols symbols, CancellationToken cancellationToken)
        {
            _model = model;
            _symbols = symbols;
            _cancellationToken = cancellationToken;
        }

        public IReadOnlyList<DocumentEdit>? FixCreation(IObjectCreationOperation creation)
        {
            if (creation.Syntax is not BaseObjectCreationExpressionSyntax syntax || !IsRewritableCreation(creation))
            {
                return null;
            }

            // A `var` local takes the new type: everything stored in it must become a coarse source too.
            if (Storage.Of(creation) is ILocalSymbol local &&
                StorageAnalysis.Analyze(local, _model, _cancellationToken) is { DeclaredType.IsVar: true } storage)
            {
                return RewriteStorage(storage, changeDeclaredType: false);
            }

            return new[] { RewriteCreation(syntax) };
        }

        public IReadOnlyList<DocumentEdit>? FixCancelAfter(IOperation receiver)
        {
            ISymbol? symbol = receiver switch
            {
                ILocalReferenceOperation local => local.Local,
                IFieldReferenceOperation field => field.Field,
                IPropertyReferenceOperation property => property.Property,
                _ => null,
            };
            if (symbol is null || StorageAnalysis.Analyze(symbol, _model, _cancellationToken) is not { } storage)
            {
                return null;
            }

            return RewriteStorage(storage, changeDeclaredType: true);
        }

        private IReadOnlyList<DocumentEdit>? RewriteStorage(StorageAnalysis storage, bool changeDeclaredType)
        {
            if (storage.References.Any(BreaksWithNarrowerType) || !storage.AssignedValues.Any(v => !v.IsKind(SyntaxKind.NullLiteralExpression)))
            {
                return null;
            }

            var edits = new List<DocumentEdit>();
            foreach (var value in storage.AssignedValues)
            {
                // Null, or a value already coarse (an earlier fix of another site on this variable): nothing to rewrite.
                if (value.IsKind(SyntaxKind.NullLiteralExpression) || _model.GetTypeInfo(value, _cancellationToken).Type.Is(_symbols.CoarseCancellationTokenSource))
                {
                    continue;
                }

                switch (_model.GetOperation(value, _cancellationToken).WithoutConversions())
                {
                    case IObjectCreationOperation { Syntax: BaseObjectCreationExpressionSyntax creation } operation when IsRewritableCreation(operation):
                        edits.Add(RewriteCreation(creation));
                        break;
                    case IInvocationOperation { Syntax: InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax access } linked } operation when IsRewritableLink(operation):
                        var model = _model;
                        edits.Add(new DocumentEdit(access.Expression,
                            current => RuntimeNames.Type(RuntimeNames.CoarseCancellationTokenSource, model, linked.SpanStart).WithTriviaFrom(current)));
                        break;
                    default:
                        return null;
                }
            }

            if (changeDeclaredType && storage.DeclaredType is { IsVar: false } declared)
            {
                edits.Add(DeclaredTypeRewrite.To(RuntimeNames.CoarseCancellationTokenSource, declared, _model));
            }

            return edits;
        }

        /// <summary>
        /// <c>CancellationTokenSource.CreateLinkedTokenSource</c> with an overload the coarse source also declares (tokens
        /// one by one or as an array); a newer overload (a span) would bind back to the base method on the coarse type.
        /// </summary>
        private bool IsRewritableLink(IInvocationOperation linked)
        {
            var symbols = _symbols;
            return linked.TargetMethod.IsMethodOf(symbols.CancellationTokenSource, "CreateLinkedTokenSource") &&
                   linked.TargetMethod.Parameters.All(p => p.Type.Is(symbols.CancellationToken) || p.Type is IArrayTypeSymbol { Rank: 1 } array && array.ElementType.Is(symbols.CancellationToken));
        }

        /// <summary>A creation of exactly CancellationTokenSource with a constructor the coarse source also has.</summary>
        private bool IsRewritableCreation(IObjectCreationOperation creation)
        {
            var symbols = _symbols;
            return creation.Constructor is { } constructor && constructor.ContainingType.Is(symbols.CancellationTokenSource) &&
                   constructor.Parameters.Length <= 1 &&
                   constructor.Parameters.All(p => p.Type.SpecialType == SpecialType.System_Int32 || p.Type.Is(symbols.TimeSpan));
        }

        private DocumentEdit RewriteCreation(BaseObjectCreationExpressionSyntax creation)
        {
            var model = _model;
            return new(creation, current => ObjectCreationRewrite.WithType((BaseObjectCreationExpressionSyntax)current, RuntimeNames.Type(RuntimeNames.CoarseCancellationTokenSource, model, creation.SpanStart)));
        }
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
}
