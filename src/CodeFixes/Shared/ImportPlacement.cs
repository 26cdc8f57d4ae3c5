using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace CoarseTimers.CodeFixes.Shared;

/// <summary>
/// Where <c>using CoarseTimers;</c> goes when the file's usings hold <c>#if</c> blocks. Roslyn's import adder sorts the
/// new directive among the usings the current configuration compiles, so it can land inside a branch (another target or
/// configuration then lacks it: CS0103), and each target of a multi-targeted project can pick another place (Fix All and
/// <c>dotnet format</c> keep both: CS0105). Placed here instead among the usings every configuration compiles, where the
/// same text and position come out of every target: before the first of them that sorts after it (after the branches
/// that precede that one), or after the last. When every using sits in a branch, nothing is added and the fix's names
/// stay qualified.
/// </summary>
internal static class ImportPlacement
{
    /// <summary>
    /// <paramref name="imported"/> (the import adder's result for <paramref name="document"/>) when the list it added
    /// <paramref name="name"/> to holds no <c>#if</c> block; otherwise <paramref name="document"/> with the directive placed
    /// as the class doc says, or null when no place is compiled by every configuration.
    /// </summary>
    public static async Task<Document?> PlaceAsync(Document document, Document imported, string name, CancellationToken cancellationToken)
    {
        var importedRoot = await imported.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        var root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        var added = importedRoot?.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax or UsingDirectiveSyntax)
            .OfType<UsingDirectiveSyntax>()
            .FirstOrDefault(u => IsPlain(u) && u.Name?.ToString() == name);
        if (root is null || added is null)
        {
            return imported;
        }

        // The same list in the document before the import: the namespace starts before the new directive, so at the same place.
        SyntaxNode? container = added.Parent switch
        {
            BaseNamespaceDeclarationSyntax ns => root.FindToken(ns.SpanStart).Parent?.FirstAncestorOrSelf<BaseNamespaceDeclarationSyntax>(),
            _ => root as CompilationUnitSyntax,
        };
        var list = container switch
        {
            BaseNamespaceDeclarationSyntax ns => ns.Usings,
            CompilationUnitSyntax unit => unit.Usings,
            _ => default,
        };
        if (list.Count == 0)
        {
            return ConditionalCode.IsInBranch(importedRoot!, added.SpanStart) ? null : imported;
        }

        var following = list.Last().GetLastToken().GetNextToken(includeZeroWidth: true);
        if (!list.Any(u => u.GetLeadingTrivia().Any(ConditionalCode.IsConditional)) && !following.LeadingTrivia.Any(ConditionalCode.IsConditional))
        {
            return imported;
        }

        var everywhere = list.Where(u => IsPlain(u) && u.GlobalKeyword.IsKind(SyntaxKind.None) && !ConditionalCode.IsInBranch(root, u.SpanStart)).ToList();
        if (everywhere.Count == 0)
        {
            return null;
        }

        // Edited as syntax, not text: the names the fix wrote keep their annotations, so the simplifier still shortens them.
        var order = Order(document, root.SyntaxTree);
        var next = everywhere.FirstOrDefault(u => order.Compare(u.Name!.ToString(), name) > 0);
        var directive = SyntaxFactory.UsingDirective(SyntaxFactory.ParseName(name));
        SyntaxList<UsingDirectiveSyntax> placed;
        if (next is not null)
        {
            // Before it, after the branches that precede it (its leading trivia moves to the new directive).
            var indentation = Indentation(next);
            placed = list.Replace(next, next.WithLeadingTrivia(indentation))
                .Insert(list.IndexOf(next), directive.WithLeadingTrivia(next.GetLeadingTrivia()).WithTrailingTrivia(LineEnd(next)));
        }
        else
        {
            var last = everywhere.Last();
            placed = list.Insert(list.IndexOf(last) + 1, directive.WithLeadingTrivia(Indentation(last)).WithTrailingTrivia(LineEnd(last)));
        }

        var rewritten = container switch
        {
            BaseNamespaceDeclarationSyntax ns => (SyntaxNode)ns.WithUsings(placed),
            _ => ((CompilationUnitSyntax)container!).WithUsings(placed),
        };
        return document.WithSyntaxRoot(root.ReplaceNode(container!, rewritten));
    }

    // A using of a namespace: not an alias, not static.
    private static bool IsPlain(UsingDirectiveSyntax directive) =>
        directive.Alias is null && directive.StaticKeyword.IsKind(SyntaxKind.None) && directive.Name is not null;

    private static SyntaxTriviaList Indentation(UsingDirectiveSyntax directive)
    {
        var leading = directive.GetLeadingTrivia();
        return leading.Count > 0 && leading.Last().IsKind(SyntaxKind.WhitespaceTrivia) ? SyntaxFactory.TriviaList(leading.Last()) : SyntaxFactory.TriviaList();
    }

    private static SyntaxTrivia LineEnd(UsingDirectiveSyntax directive) =>
        directive.GetTrailingTrivia().FirstOrDefault(t => t.IsKind(SyntaxKind.EndOfLineTrivia)) is { RawKind: not 0 } end ? end : SyntaxFactory.CarriageReturnLineFeed;

    // The order the IDE sorts usings in: System namespaces first unless the .editorconfig says otherwise, then by name.
    private static UsingOrder Order(Document document, SyntaxTree tree)
    {
        var options = document.Project.AnalyzerOptions.AnalyzerConfigOptionsProvider.GetOptions(tree);
        var systemFirst = !options.TryGetValue("dotnet_sort_system_directives_first", out var value) || !string.Equals(value.Trim(), "false", StringComparison.OrdinalIgnoreCase);
        return new UsingOrder(systemFirst);
    }

    private sealed class UsingOrder : IComparer<string>
    {
        private readonly bool _systemFirst;

        public UsingOrder(bool systemFirst) => _systemFirst = systemFirst;

        public int Compare(string? x, string? y)
        {
            if (_systemFirst && IsSystem(x) != IsSystem(y))
            {
                return IsSystem(x) ? -1 : 1;
            }

            var byName = StringComparer.OrdinalIgnoreCase.Compare(x, y);
            return byName != 0 ? byName : StringComparer.Ordinal.Compare(x, y);
        }

        private static bool IsSystem(string? name) => name is not null && (name == "System" || name.StartsWith("System.", StringComparison.Ordinal));
    }
}
