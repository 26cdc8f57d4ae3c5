using System.IO;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace CoarseTimers.Analyzers.Tests.Infrastructure;

/// <summary>An in-memory assembly named like a test framework, so a test compilation looks like a test project.</summary>
internal static class TestFrameworkReference
{
    public static MetadataReference Create(string assemblyName)
    {
        var compilation = CSharpCompilation.Create(
            assemblyName,
            new[] { CSharpSyntaxTree.ParseText("namespace Fake { public sealed class FactAttribute : System.Attribute { } }") },
            TestReferences.Net80,
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary));
        using var stream = new MemoryStream();
        compilation.Emit(stream);
        return MetadataReference.CreateFromImage(stream.ToArray());
    }
}
