using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Analyzers.Shared;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Simplification;

namespace CoarseTimers.CodeFixes.Shared;

/// <summary>
/// The shape every CoarseTimers fix shares: one diagnostic ID, one stable equivalence key (per rule, so Fix All and
/// <c>dotnet format analyzers</c> group every site of the rule), no fix when the runtime is not referenced or the site
/// cannot be rewritten safely, and Fix All (document, project, solution) that applies all of a document's edits in one
/// pass. A rule supplies only <see cref="TryGetEdits"/>, which finds the site with the same matcher its analyzer uses
/// (over <see cref="SiteOperation{T}"/>) and the compilation's <see cref="KnownSymbols"/>, never by name.
/// </summary>
public abstract class CoarseTimersCodeFixProvider : CodeFixProvider
{
    private readonly string _diagnosticId;
    private readonly string _title;
    private readonly Func<KnownSymbols, INamedTypeSymbol?> _runtimeType;

    private protected CoarseTimersCodeFixProvider(string diagnosticId, string title, Func<KnownSymbols, INamedTypeSymbol?> runtimeType)
    {
        _diagnosticId = diagnosticId;
        _title = title;
        _runtimeType = runtimeType;
        FixableDiagnosticIds = ImmutableArray.Create(diagnosticId);
    }

    public sealed override ImmutableArray<string> FixableDiagnosticIds { get; }

    public sealed override FixAllProvider GetFixAllProvider() => new FixAll(this);

    public sealed override async Task RegisterCodeFixesAsync(CodeFixContext context)
    {
        var document = context.Document;
        var model = await document.GetSemanticModelAsync(context.CancellationToken).ConfigureAwait(false);
        var root = await document.GetSyntaxRootAsync(context.CancellationToken).ConfigureAwait(false);
        var symbols = model is null ? null : KnownSymbols.For(model.Compilation);
        if (model is null || root is null || symbols is null ||
            await FixTargets.ForAsync(document, symbols, _runtimeType, context.CancellationToken).ConfigureAwait(false) is not { } targets)
        {
            return;
        }

        foreach (var diagnostic in context.Diagnostics)
        {
            var node = root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true);
            if (UsableEdits(node, model, symbols, targets, context.CancellationToken) is not null)
            {
                context.RegisterCodeFix(
                    CodeAction.Create(_title, ct => ApplyAsync(document, ImmutableArray.Create(diagnostic), ct), equivalenceKey: _diagnosticId),
                    diagnostic);
            }
        }
    }

    /// <summary>
    /// The edits that fix the site reported at <paramref name="node"/> (the node the diagnostic spans, or the innermost
    /// one around it), or null when it cannot be fixed without changing behaviour or breaking the build. A file linked
    /// into other projects (<c>&lt;Compile Include="../Shared/X.cs" Link="X.cs" /&gt;</c>, a shared project) or compiled
    /// by each target of a multi-targeted project is one text for all of them: <paramref name="targets"/> holds their
    /// compilations, each of which references the runtime, and an edit that needs more of it asks them all.
    /// </summary>
    private protected abstract IReadOnlyList<DocumentEdit>? TryGetEdits(SyntaxNode node, SemanticModel model, KnownSymbols symbols, FixTargets targets, CancellationToken cancellationToken);

    /// <summary>
    /// <see cref="TryGetEdits"/>, unless an edit touches a statement or declaration that holds an <c>#if</c> or sits in a
    /// branch its member opens around it: the branch this compilation leaves out is text the fix cannot read, so a
    /// rewrite could drop a branch's timeout, make a conditional one unconditional, orphan an <c>#else</c>, or retype a
    /// variable another configuration initializes or reads differently.
    /// </summary>
    private IReadOnlyList<DocumentEdit>? UsableEdits(SyntaxNode node, SemanticModel model, KnownSymbols symbols, FixTargets targets, CancellationToken cancellationToken)
    {
        var edits = TryGetEdits(node, model, symbols, targets, cancellationToken);
        return edits is not null && edits.Any(edit => ConditionalCode.Touches(edit.Node)) ? null : edits;
    }

    /// <summary>
    /// The operation of kind <typeparamref name="T"/> that the diagnostic at <paramref name="node"/> reports: the node's
    /// own operation or that of an enclosing node with the same span (an argument around a call, say).
    /// </summary>
    private protected static T? SiteOperation<T>(SyntaxNode node, SemanticModel model, CancellationToken cancellationToken)
        where T : class, IOperation
    {
        for (var current = node; current is not null && current.Span == node.Span; current = current.Parent)
        {
            if (model.GetOperation(current, cancellationToken) is T operation)
            {
                return operation;
            }
        }

        return null;
    }

    private async Task<Document> ApplyAsync(Document document, ImmutableArray<Diagnostic> diagnostics, CancellationToken cancellationToken)
    {
        var model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
        var root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        var symbols = model is null ? null : KnownSymbols.For(model.Compilation);
        if (model is null || root is null || symbols is null ||
            await FixTargets.ForAsync(document, symbols, _runtimeType, cancellationToken).ConfigureAwait(false) is not { } targets)
        {
            return document;
        }

        var edits = new Dictionary<SyntaxNode, DocumentEdit>();
        foreach (var diagnostic in diagnostics.OrderBy(d => d.Location.SourceSpan.Start))
        {
            var node = root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true);
            foreach (var edit in UsableEdits(node, model, symbols, targets, cancellationToken) ?? [])
            {
                // The first edit of a node wins: two sites that need the same rewrite (one declaration) apply it once.
                if (!edits.ContainsKey(edit.Node))
                {
                    edits.Add(edit.Node, edit);
                }
            }
        }

        var editor = new SyntaxEditor(root, document.Project.Solution.Workspace.Services);
        foreach (var edit in edits.Values.OrderByDescending(e => e.Node.SpanStart))
        {
            if (edit.Rewrite is { } rewrite)
            {
                editor.ReplaceNode(edit.Node, (current, _) => rewrite(current));
            }
            else
            {
                RemoveKeepingComments(editor, edit.Node);
            }
        }

        // Clean up here rather than rely on the host: `dotnet format` applies the changed document as it is. Adds
        // `using CoarseTimers;` in the file's style where no existing name changes binding (SafeImports), shortens the
        // names it makes valid, and formats only the names the fix wrote (RuntimeNames annotates them), so the user's
        // own layout of arguments and lambdas stays.
        var changed = document.WithSyntaxRoot(BlockSplice.Apply(editor.GetChangedRoot()));
        var imported = await SafeImports.AddAsync(changed, cancellationToken).ConfigureAwait(false);
        var reduced = await Simplifier.ReduceAsync(imported, Simplifier.Annotation, cancellationToken: cancellationToken).ConfigureAwait(false);
        if (imported != changed && !await SafeImports.StillImportsAsync(reduced, cancellationToken).ConfigureAwait(false))
        {
            // No name was shortened, so the simplifier dropped the directive again, but not the blank line the import
            // put after it: reduce the document as it was before the import instead.
            reduced = await Simplifier.ReduceAsync(changed, Simplifier.Annotation, cancellationToken: cancellationToken).ConfigureAwait(false);
        }

        return await Formatter.FormatAsync(reduced, Formatter.Annotation, cancellationToken: cancellationToken).ConfigureAwait(false);
    }

    /// <summary>
    /// Removes a statement; what the user wrote around it (a comment on the lines above or after it on its line, an
    /// <c>#if</c> block, inactive code) stays, a trailing comment on a line of its own at the statement's indentation.
    /// </summary>
    private static void RemoveKeepingComments(SyntaxEditor editor, SyntaxNode statement)
    {
        var trailing = statement.GetTrailingTrivia();
        if (!statement.GetLeadingTrivia().Concat(trailing).Any(Trivia.IsWritten))
        {
            editor.RemoveNode(statement);
            return;
        }

        // A trailing comment keeps its line (the statement's indentation before it); with none, the statement's own line
        // goes: its indentation and its line end.
        var leading = statement.GetLeadingTrivia();
        var trailingWritten = trailing.Any(Trivia.IsWritten);
        var keptLeading = trailingWritten || leading.Count == 0 || !leading.Last().IsKind(SyntaxKind.WhitespaceTrivia) ? leading : SyntaxFactory.TriviaList(leading.Take(leading.Count - 1));
        var keptTrailing = trailingWritten
            ? SyntaxFactory.TriviaList(trailing.Where((trivia, i) => !(trivia.IsKind(SyntaxKind.WhitespaceTrivia) && i + 1 < trailing.Count && Trivia.IsWritten(trailing[i + 1]))))
            : SyntaxFactory.TriviaList();
        editor.ReplaceNode(statement, (current, _) => current.WithLeadingTrivia(keptLeading).WithTrailingTrivia(keptTrailing));
        editor.RemoveNode(statement, SyntaxRemoveOptions.KeepExteriorTrivia | SyntaxRemoveOptions.KeepDirectives | SyntaxRemoveOptions.KeepUnbalancedDirectives);
    }

    /// <summary>Fix All for every scope: each document's diagnostics are applied in one pass (see <see cref="DocumentEdit"/>).</summary>
    private sealed class FixAll : DocumentBasedFixAllProvider
    {
        private readonly CoarseTimersCodeFixProvider _provider;

        public FixAll(CoarseTimersCodeFixProvider provider) => _provider = provider;

        protected override string GetFixAllTitle(FixAllContext fixAllContext) => _provider._title;

        protected override async Task<Document?> FixAllAsync(FixAllContext fixAllContext, Document document, ImmutableArray<Diagnostic> diagnostics) =>
            diagnostics.IsEmpty ? document : await _provider.ApplyAsync(document, diagnostics, fixAllContext.CancellationToken).ConfigureAwait(false);
    }
}
