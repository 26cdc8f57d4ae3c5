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
/// CT0002, the cheapest rewrite whose behaviour is the same at the site, tried in this order:
/// <list type="number">
/// <item>a timeout source used only for its token: <c>CoarseTimeout.After(t)</c> (<see cref="TimeoutTokenRewrite"/>);</item>
/// <item><c>CreateLinkedTokenSource(token)</c> armed once right after by <c>CancelAfter(t)</c>:
/// <c>CoarseTimeout.CreateLinkedTokenSource(token, t)</c> (<see cref="LinkedTimeoutRewrite"/>);</item>
/// <item>otherwise the source becomes a <c>CoarseCancellationTokenSource</c>: its creation (<c>new</c> or
/// <c>CreateLinkedTokenSource</c>) and the declaration of the local, private field or private property that holds it.
/// Only when no reference can reach anything typed <c>CancellationTokenSource</c> (argument, return, assignment,
/// initializer, conversion, capture, extension method): <c>CancelAfter</c> and <c>TryReset</c> are not virtual, so a
/// base-typed reference would call the BCL's while the coarse timeout stays armed and fires early.</item>
/// </list>
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(TimeoutCancellationTokenSourceCodeFixProvider)), Shared]
public sealed class TimeoutCancellationTokenSourceCodeFixProvider : CoarseTimersCodeFixProvider
{
    public TimeoutCancellationTokenSourceCodeFixProvider()
        : base(DiagnosticIds.TimeoutCancellationTokenSource, "Use a coarse timeout (CoarseTimeout or CoarseCancellationTokenSource)", static symbols => symbols.CoarseCancellationTokenSource)
    {
    }

    private protected override IReadOnlyList<DocumentEdit>? TryGetEdits(SyntaxNode node, SemanticModel model, KnownSymbols symbols, FixTargets targets, CancellationToken cancellationToken)
    {
        var site = new Site(model, symbols, targets.Every(static each => each.CoarseSourceResets), cancellationToken);
        if (SiteOperation<IObjectCreationOperation>(node, model, cancellationToken) is { } creation && TimeoutCancellationTokenSourceAnalyzer.IsTimeoutCreation(creation, symbols))
        {
            return TimeoutTokenRewrite.TryCreate(creation, model, symbols, cancellationToken) ?? site.FixCreation(creation);
        }

        if (SiteOperation<IInvocationOperation>(node, model, cancellationToken) is { Instance: { } receiver } cancelAfter && TimeoutCancellationTokenSourceAnalyzer.IsCancelAfter(cancelAfter, symbols))
        {
            return LinkedTimeoutRewrite.TryCreate(cancelAfter, model, symbols, cancellationToken) ?? site.FixCancelAfter(receiver);
        }

        return null;
    }

    /// <summary>One fix's view of the document: its semantic model and the compilation's symbols.</summary>
    private readonly struct Site
    {
        private readonly SemanticModel _model;
        private readonly KnownSymbols _symbols;
        private readonly bool _everyTargetResets;
        private readonly CancellationToken _cancellationToken;

        public Site(SemanticModel model, KnownSymbols symbols, bool everyTargetResets, CancellationToken cancellationToken)
        {
            _model = model;
            _symbols = symbols;
            _everyTargetResets = everyTargetResets;
            _cancellationToken = cancellationToken;
        }

        public IReadOnlyList<DocumentEdit>? FixCreation(IObjectCreationOperation creation)
        {
            // Stored anywhere else (an argument, a return, a base-typed or interface-typed variable), a coarse source
            // would be reachable through a CancellationTokenSource reference.
            var symbol = Storage.Of(creation);
            if (!IsRewritableCreation(creation) || !Storage.TypeOf(symbol).Is(_symbols.CancellationTokenSource) ||
                StorageAnalysis.Analyze(symbol!, _model, _cancellationToken) is not { } storage)
            {
                return null;
            }

            return RewriteStorage(storage);
        }

        public IReadOnlyList<DocumentEdit>? FixCancelAfter(IOperation receiver)
        {
            // `source?.CancelAfter(t)` arms the same variable as the plain call.
            ISymbol? symbol = receiver.ThroughConditionalAccess() switch
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

            return RewriteStorage(storage);
        }

        /// <summary>
        /// Every value stored in the variable becomes a coarse source and its declaration the coarse type, when every
        /// reference uses it as itself (members, <c>using</c>, null checks, assignments of its own) or as an interface.
        /// </summary>
        private IReadOnlyList<DocumentEdit>? RewriteStorage(StorageAnalysis storage)
        {
            var symbols = _symbols;
            var everyTargetResets = _everyTargetResets;
            if (!storage.AssignedValues.Any(v => !v.IsKind(SyntaxKind.NullLiteralExpression)) ||
                !storage.UsedOnlyThrough(member => everyTargetResets || IsNotReset(member, symbols), static _ => false, _symbols, _model, _cancellationToken))
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

            if (storage.DeclaredType is { IsVar: false } declared)
            {
                edits.Add(DeclaredTypeRewrite.To(RuntimeNames.CoarseCancellationTokenSource, declared, _model));
            }

            return edits;
        }

        /// <summary>
        /// Not <c>TryReset</c> unless every target's runtime declares its own (<see cref="KnownSymbols.CoarseSourceResets"/>,
        /// over <see cref="FixTargets"/>): it is not virtual, and the runtime's netstandard2.0 build, which a net6.0 or
        /// net7.0 target gets (alone or beside net8.0 in a multi-targeted project), has none of its own, so there
        /// <c>cts.TryReset()</c> would call the BCL's and leave the coarse timeout armed. Every other member,
        /// <c>CancelAfter</c> included, binds to the coarse source's or behaves the same.
        /// </summary>
        private static bool IsNotReset(ISymbol member, KnownSymbols symbols) =>
            member is not IMethodSymbol { Name: "TryReset" } method || !method.ContainingType.Is(symbols.CancellationTokenSource);

        /// <summary>
        /// <c>CancellationTokenSource.CreateLinkedTokenSource</c> with an overload the coarse source also declares (tokens
        /// one by one or as an array), or the <c>params ReadOnlySpan&lt;CancellationToken&gt;</c> overload of .NET 9 when
        /// the call lists the tokens one by one (C# 13 binds <c>(a, b, c)</c> to it) or in a collection expression
        /// (<c>([a, b])</c>): on the coarse type the same arguments bind to its <c>params CancellationToken[]</c> overload, as
        /// overload resolution keeps the most derived type's applicable methods. Not a span passed as such, which would
        /// bind back to the base method on the coarse type.
        /// </summary>
        private bool IsRewritableLink(IInvocationOperation linked)
        {
            var symbols = _symbols;
            if (!linked.TargetMethod.IsMethodOf(symbols.CancellationTokenSource, "CreateLinkedTokenSource"))
            {
                return false;
            }

            var parameters = linked.TargetMethod.Parameters;
            if (parameters.All(p => p.Type.Is(symbols.CancellationToken) || p.Type is IArrayTypeSymbol { Rank: 1 } array && array.ElementType.Is(symbols.CancellationToken)))
            {
                return true;
            }

            var model = _model;
            var cancellationToken = _cancellationToken;
            return parameters.Length == 1 && parameters[0].IsParams && linked.Syntax is InvocationExpressionSyntax { ArgumentList.Arguments: { Count: > 0 } arguments } &&
                   (arguments is { Count: 1 } && arguments[0] is { NameColon: null, Expression: CollectionExpressionSyntax } ||
                    arguments.All(a => a.NameColon is null && a.RefKindKeyword.IsKind(SyntaxKind.None) &&
                                       model.GetTypeInfo(a.Expression, cancellationToken).Type.Is(symbols.CancellationToken)));
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
}
