using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace CoarseTimers.CodeFixes.Shared;

/// <summary>
/// Retypes a declaration (<c>Timer t</c>, <c>Timer? _t</c>) to a runtime type. Only the named type is replaced, so a
/// nullable annotation and the trivia around it stay as written.
/// </summary>
internal static class DeclaredTypeRewrite
{
    public static DocumentEdit To(string runtimeType, TypeSyntax declared, SemanticModel model)
    {
        var named = declared is NullableTypeSyntax nullable ? nullable.ElementType : declared;
        return new DocumentEdit(named, current => RuntimeNames.Type(runtimeType, model, named.SpanStart).WithTriviaFrom(current));
    }
}
