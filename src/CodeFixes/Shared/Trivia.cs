using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace CoarseTimers.CodeFixes.Shared;

/// <summary>What the user wrote between tokens, which a rewrite must not drop: comments, directives and inactive code.</summary>
internal static class Trivia
{
    /// <summary>Anything but whitespace and line ends: a comment, a directive (<c>#if</c>, <c>#region</c>), inactive code.</summary>
    public static bool IsWritten(SyntaxTrivia trivia) => !trivia.IsKind(SyntaxKind.WhitespaceTrivia) && !trivia.IsKind(SyntaxKind.EndOfLineTrivia);

    /// <summary>Some token inside <paramref name="node"/>, or at its edges, carries written trivia.</summary>
    public static bool HasWritten(SyntaxNode node) => node.DescendantTrivia(descendIntoTrivia: false).Any(IsWritten);
}
