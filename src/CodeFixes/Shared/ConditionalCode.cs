using System;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace CoarseTimers.CodeFixes.Shared;

/// <summary>
/// Code an <c>#if</c> leaves out of the compilation a fix sees: another target framework or configuration compiles it,
/// so it is text the fix can read but not bind. Fixes use it to stay away from statements such a branch splits or wraps,
/// and from names such code declares or uses.
/// </summary>
internal static class ConditionalCode
{
    /// <summary>
    /// <paramref name="name"/> is spelled, as a whole identifier, in code an <c>#if</c> leaves out of this compilation
    /// under <paramref name="scope"/>: another target or configuration compiles it, so an analysis of the active code
    /// alone does not see every use (or every declaration) of that name.
    /// </summary>
    public static bool IsNamedInInactiveCode(SyntaxNode scope, string name)
    {
        foreach (var trivia in scope.DescendantTrivia(descendIntoTrivia: true))
        {
            if (trivia.IsKind(SyntaxKind.DisabledTextTrivia) && ContainsWord(trivia.ToString(), name))
            {
                return true;
            }
        }

        return false;
    }

    // Whether text holds name as a whole identifier (not inside a longer one).
    private static bool ContainsWord(string text, string name)
    {
        for (var at = text.IndexOf(name, StringComparison.Ordinal); at >= 0; at = text.IndexOf(name, at + 1, StringComparison.Ordinal))
        {
            var end = at + name.Length;
            if ((at == 0 || !IsIdentifierPart(text[at - 1])) && (end == text.Length || !IsIdentifierPart(text[end])))
            {
                return true;
            }
        }

        return false;
    }

    private static bool IsIdentifierPart(char c) => char.IsLetterOrDigit(c) || c == '_';

    /// <summary>
    /// The statement or declaration <paramref name="node"/> belongs to holds an <c>#if</c>, or sits in a branch its member
    /// (or type, for a field) opens and closes around it: another configuration compiles other code there.
    /// </summary>
    public static bool Touches(SyntaxNode node)
    {
        // The whole declaration a declared type, an initializer or a declarator belongs to; a statement of its own; for a
        // `using (...)` header only the header (its body's own #if blocks stay where they are when it is unwrapped).
        var around = node.FirstAncestorOrSelf<SyntaxNode>(n => n is VariableDeclarationSyntax or StatementSyntax or MemberDeclarationSyntax) ?? node;
        if (around is VariableDeclarationSyntax { Parent: LocalDeclarationStatementSyntax or BaseFieldDeclarationSyntax } declaration)
        {
            around = declaration.Parent!;
        }

        var span = around is UsingStatementSyntax usingStatement
            ? Microsoft.CodeAnalysis.Text.TextSpan.FromBounds(usingStatement.SpanStart, usingStatement.CloseParenToken.Span.End)
            : around.Span;
        if (around.DescendantTrivia(span, descendIntoTrivia: true).Any(IsConditional))
        {
            return true;
        }

        // Inside a branch its member (or type, for a field) opens and closes around it: another configuration compiles
        // other code there. A branch around the whole member does not count: there the member is all or nothing.
        var container = around.Parent?.FirstAncestorOrSelf<SyntaxNode>(n => n is MemberDeclarationSyntax or CompilationUnitSyntax);
        if (container is GlobalStatementSyntax)
        {
            // Top-level statements are one program: a branch may open in an earlier one.
            container = container.Parent;
        }

        var depth = 0;
        for (var directive = container?.GetFirstDirective(); directive is not null && directive.SpanStart < around.SpanStart; directive = directive.GetNextDirective())
        {
            if (directive.SpanStart < container!.SpanStart)
            {
                continue;
            }

            switch (directive.Kind())
            {
                case SyntaxKind.IfDirectiveTrivia:
                    depth++;
                    break;
                case SyntaxKind.EndIfDirectiveTrivia:
                    depth--;
                    break;
                case SyntaxKind.ElseDirectiveTrivia or SyntaxKind.ElifDirectiveTrivia when depth == 0:
                    return true;
            }

            if (depth < 0)
            {
                return true;
            }
        }

        return depth != 0;
    }

    /// <summary>
    /// <paramref name="position"/> lies inside an <c>#if</c> block of <paramref name="root"/> (in any of its branches):
    /// whether the code there is compiled depends on the configuration.
    /// </summary>
    public static bool IsInBranch(SyntaxNode root, int position)
    {
        var depth = 0;
        foreach (var trivia in root.DescendantTrivia(descendIntoTrivia: true))
        {
            if (trivia.SpanStart >= position)
            {
                break;
            }

            if (trivia.IsKind(SyntaxKind.IfDirectiveTrivia))
            {
                depth++;
            }
            else if (trivia.IsKind(SyntaxKind.EndIfDirectiveTrivia))
            {
                depth--;
            }
        }

        return depth > 0;
    }

    /// <summary>A conditional directive (<c>#if</c>, <c>#elif</c>, <c>#else</c>, <c>#endif</c>) or the code one leaves out.</summary>
    public static bool IsConditional(SyntaxTrivia trivia) =>
        trivia.IsKind(SyntaxKind.IfDirectiveTrivia) || trivia.IsKind(SyntaxKind.ElifDirectiveTrivia) || trivia.IsKind(SyntaxKind.ElseDirectiveTrivia) ||
        trivia.IsKind(SyntaxKind.EndIfDirectiveTrivia) || trivia.IsKind(SyntaxKind.DisabledTextTrivia);
}
