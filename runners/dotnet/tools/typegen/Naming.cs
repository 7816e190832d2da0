using System.Collections.Generic;
using System.Text;

namespace Serbench.TypeGen
{
    /// <summary>C# names for types.json names: kept when they are identifiers, else made into one.</summary>
    public static class Naming
    {
        static readonly HashSet<string> Keywords = new HashSet<string>
        {
            "abstract", "as", "base", "bool", "break", "byte", "case", "catch", "char", "checked", "class", "const",
            "continue", "decimal", "default", "delegate", "do", "double", "else", "enum", "event", "explicit", "extern",
            "false", "finally", "fixed", "float", "for", "foreach", "goto", "if", "implicit", "in", "int", "interface",
            "internal", "is", "lock", "long", "namespace", "new", "null", "object", "operator", "out", "override",
            "params", "private", "protected", "public", "readonly", "ref", "return", "sbyte", "sealed", "short",
            "sizeof", "stackalloc", "static", "string", "struct", "switch", "this", "throw", "true", "try", "typeof",
            "uint", "ulong", "unchecked", "unsafe", "ushort", "using", "virtual", "void", "volatile", "while",
        };

        public static string Ident(string name)
        {
            var sb = new StringBuilder();
            foreach (char c in name)
                sb.Append(char.IsLetterOrDigit(c) || c == '_' ? c : '_');
            if (sb.Length == 0 || char.IsDigit(sb[0]))
                sb.Insert(0, '_');
            string s = sb.ToString();
            return Keywords.Contains(s) ? "@" + s : s;
        }

        /// <summary>"my-data-set" -> "MyDataSet".</summary>
        public static string Pascal(string name)
        {
            var sb = new StringBuilder();
            bool up = true;
            foreach (char c in name)
            {
                if (!char.IsLetterOrDigit(c))
                {
                    up = true;
                    continue;
                }
                sb.Append(up ? char.ToUpperInvariant(c) : c);
                up = false;
            }
            if (sb.Length == 0 || char.IsDigit(sb[0]))
                sb.Insert(0, 'D');
            return sb.ToString();
        }

        public static string Quote(string s)
        {
            var sb = new StringBuilder("\"");
            foreach (char c in s)
            {
                if (c == '"' || c == '\\')
                    sb.Append('\\').Append(c);
                else if (c < ' ' || c > '~')
                    sb.AppendFormat("\\u{0:x4}", (int)c);
                else
                    sb.Append(c);
            }
            return sb.Append('"').ToString();
        }
    }
}
